import { BillingError } from '../errors';
import type { HeaderRecord } from './headers';
import { quotable, redact } from './redact';

// What a user can act on, per system error code (Node, node-fetch, undici).
const PHRASES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

type Loose = { readonly name?: unknown; readonly message?: unknown; readonly code?: unknown; readonly cause?: unknown };

// A name or code is shown only when it has the shape of one and quotes no
// header value: a fetch may put request data anywhere on its error.
const shown = (value: unknown, shape: RegExp, headers: HeaderRecord): value is string =>
  typeof value === 'string' && shape.test(value) && redact(value, headers) === value;

const NAME = /^[A-Z][A-Za-z]{0,40}(Error|Exception)$/;
const CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

/**
 * A copy of a fetch error safe to attach as `cause`: its name and code where
 * they look like one, its message redacted, a stack of that one line (the
 * frames would be the library's). Never the error itself, whose fields and
 * nested causes may quote the request and so the caller's headers.
 */
function sanitized(thrown: unknown, headers: HeaderRecord): Error & { code?: string } {
  const error = typeof thrown === 'object' && thrown !== null ? (thrown as Loose) : undefined;
  const name = shown(error?.name, NAME, headers) ? error.name : 'Error';
  // On the error (node-fetch) or on its cause (undici's "fetch failed").
  const code = [error, error?.cause as Loose | undefined]
    .map((item) => item?.code)
    .find((item) => shown(item, CODE, headers));
  const cause: Error & { code?: string } = new Error(
    quotable(typeof error?.message === 'string' ? error.message : String(thrown), headers, 300),
  );
  Object.defineProperty(cause, 'name', { value: name, writable: true, configurable: true });
  cause.stack = `${name}: ${cause.message}`;
  if (typeof code === 'string') cause.code = code;
  return cause;
}

/**
 * The error of a fetch that failed. A fetch that threw synchronously (not a
 * function, a wrapper that breaks before sending) or that met a missing
 * global (`ReferenceError`) never reached the network: that is a setup error,
 * `invalid_argument`, never retried. A real fetch rejects instead (a CORS
 * block too is a rejected `TypeError`): `network`, retried.
 */
export function fetchError(where: string, thrown: unknown, headers: HeaderRecord, synchronous: boolean): BillingError {
  const cause = sanitized(thrown, headers);
  const { name, code } = cause;
  if (synchronous || thrown instanceof ReferenceError) {
    const message = /fetch is not a function/i.test(cause.message)
      ? "no fetch function: pass `fetch` to createClient (Jest's jsdom has none)"
      : `the fetch function failed before sending (${name}: ${cause.message}): pass a working \`fetch\` to createClient`;
    return new BillingError('invalid_argument', `${where}: ${message}`, { cause });
  }
  const phrase =
    code !== undefined
      ? `${PHRASES[code] ?? (/CERT|TLS|SSL/.test(code) ? 'TLS certificate refused' : 'network error')} (${code})`
      : name === 'TypeError'
        ? // How browsers report a refused connection, a DNS failure and a CORS block alike.
          'no response (TypeError); a network error or a CORS block is likely, see the browser console'
        : undefined;
  return new BillingError(
    'network',
    phrase === undefined ? `${where} failed (${name})` : `${where} failed: ${phrase}`,
    {
      cause,
    },
  );
}
