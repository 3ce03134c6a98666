// The fetch the client uses when the caller gives none: the runtime's own (Node 18+, browsers, React
// Native, Deno, Bun), so the package has no runtime dependency. Looked up on every call, so a fetch
// installed or wrapped after the client was made (a polyfill, a service worker shim, a test's mock) is the
// one used; and called as a method of globalThis, because the browser's fetch throws "Illegal invocation"
// when its `this` is any other object (an options object or a client holding it as a property).
import type { FetchLike } from '../shared/types';

/**
 * The global `fetch`, read when a request goes out. Where there is none, the
 * call throws before sending, which the transport reports as a setup error
 * (`invalid_argument`) of that request, saying to pass `fetch`.
 *
 * @example
 * ```ts
 * const response = await defaultFetch('https://billing.example/health');
 * ```
 */
export const defaultFetch: FetchLike = (input, init) => globalThis.fetch(input, init);
