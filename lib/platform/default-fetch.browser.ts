// The browser build's default fetch: the platform's own. Looked up on every
// call, so a fetch wrapped after the client was made (a service worker shim, a
// test's mock) is the one used; and called as a method of globalThis, because
// the browser's fetch throws "Illegal invocation" when its `this` is any
// other object (an options object or a client holding it as a property).
// shared's FetchLike by its shape: platform/ files are leaves the build swaps, importing nothing from lib.
type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The platform `fetch`, unless the caller injected one.
 *
 * @example
 * ```ts
 * const response = await defaultFetch('https://billing.example/health');
 * ```
 */
export const defaultFetch: FetchLike = (input, init) => globalThis.fetch(input, init);
