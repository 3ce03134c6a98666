import { webcrypto } from 'node:crypto';
import { randomId } from '../../lib/platform/random-id.browser';

// The browser twin must not load uuid: if it did, importing it would throw here.
jest.mock('uuid', () => {
  throw new Error('random-id.browser.ts loaded uuid');
});

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');

/** Runs `body` with `globalThis.crypto` replaced, as on a page without a secure context. */
function withCrypto<T>(crypto: Partial<Crypto>, body: () => T): T {
  Object.defineProperty(globalThis, 'crypto', { value: crypto, configurable: true, writable: true });
  try {
    return body();
  } finally {
    if (original) Object.defineProperty(globalThis, 'crypto', original);
  }
}

// Only getRandomValues, as in an http: page (no secure context).
const insecure = (fill?: number): Partial<Crypto> => ({
  getRandomValues: <T extends ArrayBufferView | null>(array: T): T =>
    fill === undefined
      ? (webcrypto.getRandomValues(array as Uint8Array) as unknown as T)
      : ((array as Uint8Array).fill(fill) as unknown as T),
});

describe('randomId() in the browser build', () => {
  it('uses crypto.randomUUID where it exists', () => {
    const id = '7d444840-9dc0-41e4-8a0f-2d2f6c6b1c3e';
    const randomUUID = jest.fn(() => id as `${string}-${string}-${string}-${string}-${string}`);
    expect(withCrypto({ randomUUID, getRandomValues: insecure().getRandomValues }, randomId)).toBe(id);
    expect(randomUUID).toHaveBeenCalledTimes(1);
  });

  it('with the platform crypto: lowercase v4 UUIDs, version 4, variant 10xx, no repeat over 5,000', () => {
    const ids = Array.from({ length: 5000 }, randomId);
    expect(ids.filter((id) => !V4.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('without randomUUID (no secure context): v4 UUIDs from getRandomValues, no repeat over 5,000', () => {
    const ids = withCrypto(insecure(), () => Array.from({ length: 5000 }, randomId));
    expect(ids.filter((id) => !V4.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('without randomUUID: the version and variant bits are set whatever the random bytes are', () => {
    expect(withCrypto(insecure(0xff), randomId)).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(withCrypto(insecure(0x00), randomId)).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('without randomUUID: every random byte lands in the id, in order', () => {
    let next = 0;
    const counting: Partial<Crypto> = {
      getRandomValues: <T extends ArrayBufferView | null>(array: T): T => {
        const bytes = array as Uint8Array;
        for (let i = 0; i < bytes.length; i += 1) bytes[i] = next++;
        return array;
      },
    };
    // Bytes 0x00..0x0f; byte 6 (0x06) becomes 0x46 and byte 8 (0x08) 0x88.
    expect(withCrypto(counting, randomId)).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
  });
});
