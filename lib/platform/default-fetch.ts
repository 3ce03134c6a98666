// The fetch the client uses when the caller gives none, outside browsers:
// cross-fetch (node-fetch in Node 18, the platform fetch where there is one).
// Bundlers that honour the package's `browser` condition get
// default-fetch.browser.ts instead (scripts/build.mjs), so a browser app
// never ships cross-fetch's whatwg-fetch polyfill.
import crossFetch from 'cross-fetch';
// shared's FetchLike by its shape: platform/ files are leaves the build swaps, importing nothing from lib.
type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * `cross-fetch`, unless the caller injected a fetch.
 */
export const defaultFetch: FetchLike = crossFetch as FetchLike;
