import type { BackendRequest } from './exchange';

/**
 * The cookies the reference backend reads, for a browser's `EventSource`,
 * which cannot send an `Authorization` header:
 * - `token`: the user's bearer token, accepted on the event stream only (the
 *   three calls take the header, as the contract says);
 * - `device`: any id a browser keeps for itself; a charge made by a request
 *   carrying it is not told to the event streams carrying the same one (that
 *   client applied its own charge already).
 *
 * @example
 * ```ts
 * document.cookie = `${REFERENCE_COOKIES.token}=alice-token; path=/; SameSite=Strict`;
 * ```
 */
export const REFERENCE_COOKIES = { token: 'billing_token', device: 'billing_device' } as const;

/** The value of cookie `name` in a `Cookie` header, if there is one. */
export function cookieValue(request: BackendRequest, name: string): string | undefined {
  for (const pair of (request.header('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return decoded(pair.slice(at + 1).trim());
  }
  return undefined;
}

// A malformed escape is kept as sent rather than failing the request.
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
