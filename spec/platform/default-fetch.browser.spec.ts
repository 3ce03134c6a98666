import { defaultFetch } from '../../lib/platform/default-fetch.browser';

// The browser twin must not load cross-fetch (its whatwg-fetch polyfill is
// what the browser build exists to drop): if it did, importing it would throw.
jest.mock('cross-fetch', () => {
  throw new Error('default-fetch.browser.ts loaded cross-fetch');
});

describe('defaultFetch in the browser build', () => {
  const original = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = original;
  });

  it('calls globalThis.fetch with the request, as a method of globalThis (never an illegal invocation)', async () => {
    const response = new Response('{}');
    const calls: Array<{ self: unknown; args: unknown[] }> = [];
    // Like the browser's fetch, it refuses any `this` but the global object.
    globalThis.fetch = function (this: unknown, ...args: unknown[]) {
      calls.push({ self: this, args });
      if (this !== undefined && this !== globalThis) return Promise.reject(new TypeError('Illegal invocation'));
      return Promise.resolve(response);
    } as typeof fetch;
    const init: RequestInit = { method: 'POST', body: '{"a":1}' };
    const holder = { fetch: defaultFetch };

    await expect(holder.fetch('https://billing.example/consume', init)).resolves.toBe(response);
    expect(calls).toEqual([{ self: globalThis, args: ['https://billing.example/consume', init] }]);
  });

  it('reads globalThis.fetch at each call, so a fetch wrapped later is the one used', async () => {
    const first = jest.fn(() => Promise.resolve(new Response('1')));
    const second = jest.fn(() => Promise.resolve(new Response('2')));
    globalThis.fetch = first as typeof fetch;
    await defaultFetch('https://billing.example/a');
    globalThis.fetch = second as typeof fetch;
    await defaultFetch('https://billing.example/b');
    expect(first.mock.calls).toEqual([['https://billing.example/a', undefined]]);
    expect(second.mock.calls).toEqual([['https://billing.example/b', undefined]]);
  });

  it("rejects with fetch's own error, which the transport reports as a network error", async () => {
    const failure = new TypeError('Failed to fetch');
    globalThis.fetch = (() => Promise.reject(failure)) as typeof fetch;
    await expect(defaultFetch('https://billing.example/a')).rejects.toBe(failure);
  });
});
