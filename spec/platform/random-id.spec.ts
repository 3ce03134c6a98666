import { webcrypto } from 'node:crypto';
import { isBillingError } from '../../lib';
import { newPageId, randomId } from '../../lib/platform/random-id';

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

describe('randomId(): the id of a consume sent without an externalId', () => {
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

  it('without randomUUID: each nibble of the id is one random byte, in order', () => {
    let next = 0;
    const counting: Partial<Crypto> = {
      getRandomValues: <T extends ArrayBufferView | null>(array: T): T => {
        const bytes = array as Uint8Array;
        for (let i = 0; i < bytes.length; i += 1) bytes[i] = next++;
        return array;
      },
    };
    // Bytes 0..30, low nibble each; the version is a literal 4 and the variant takes byte 15's two low bits.
    expect(withCrypto(counting, randomId)).toBe('01234567-89ab-4cde-b012-3456789abcde');
  });

  it('with neither (React Native without a polyfill): a typed error naming the polyfill and externalId, never Math.random', () => {
    const random = jest.spyOn(Math, 'random');
    const error = withCrypto({}, () => {
      try {
        return randomId();
      } catch (caught) {
        return caught;
      }
    });
    expect(isBillingError(error, 'invalid_argument')).toBe(true);
    expect((error as Error).message).toMatch(/no global crypto: import 'react-native-get-random-values'.*externalId/);
    expect(random).not.toHaveBeenCalled();
    random.mockRestore();
  });
});

describe('newPageId(): the page id a feature reads', () => {
  it('needs no crypto and never throws', () => {
    const ids = withCrypto({}, () => Array.from({ length: 1000 }, newPageId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^[0-9a-z]+$/.test(id))).toBe(true);
  });
});
