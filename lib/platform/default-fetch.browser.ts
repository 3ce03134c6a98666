// The browser build's default fetch: the platform's own. Looked up on every
// call, so a fetch wrapped after the client was made (a service worker shim, a
// test's mock) is the one used; and called as a method of globalThis, because
// the browser's fetch throws "Illegal invocation" when its `this` is any
// other object (an options object or a client holding it as a property).
import type { FetchLike } from '../shared/types';

/**
 * The platform `fetch`, unless the caller injected one.
 *
 * @example
 * ```ts
 * const response = await defaultFetch('https://billing.example/health');
 * ```
 */
export const defaultFetch: FetchLike = (input, init) => globalThis.fetch(input, init);
