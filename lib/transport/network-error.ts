import { BillingError } from '../errors';
import { quotable } from './redact';

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

// On the error (node-fetch) or on its cause (undici's "fetch failed"); only code-shaped strings.
function codeOf(error: Loose | undefined): string | undefined {
  for (const candidate of [error, error?.cause as Loose | undefined]) {
    const code = candidate?.code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * The `network` error of a failed fetch. Its `cause` is built here (name,
 * code, redacted message), never the fetch error itself, whose fields and
 * nested causes may quote the request and so the caller's headers.
 */
export function networkError(where: string, thrown: unknown, headers: Readonly<Record<string, string>>): BillingError {
  const error = typeof thrown === 'object' && thrown !== null ? (thrown as Loose) : undefined;
  const name = typeof error?.name === 'string' && /^\w{1,64}$/.test(error.name) ? error.name : 'Error';
  const code = codeOf(error);
  const cause = new Error(quotable(typeof error?.message === 'string' ? error.message : String(thrown), headers, 300));
  Object.defineProperty(cause, 'name', { value: name, writable: true, configurable: true });
  // Only the header line: the frames would be the library's, not the failure's.
  cause.stack = `${name}: ${cause.message}`;
  if (code !== undefined) Object.assign(cause, { code });
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
