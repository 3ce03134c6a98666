import { BillingError } from '../errors';
import { quotable } from './redact';

// What a user can act on, per system error code (Node, node-fetch, undici).
const PHRASES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed, temporarily',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed TLS certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
};

const CODE = /^[A-Z][A-Z0-9_]{1,63}$/;
const NAME = /^[A-Za-z_$][\w$]{0,63}$/;

type Loose = { readonly name?: unknown; readonly message?: unknown; readonly code?: unknown; readonly cause?: unknown };

function codeOf(error: Loose | undefined, depth = 0): string | undefined {
  if (error === undefined || depth > 2) return undefined;
  if (typeof error.code === 'string' && CODE.test(error.code)) return error.code;
  const inner = error.cause;
  return typeof inner === 'object' && inner !== null ? codeOf(inner as Loose, depth + 1) : undefined;
}

/**
 * The `network` error of a failed fetch. Its `cause` is built here (name,
 * code, redacted message), never the fetch error itself, whose fields and
 * nested causes may quote the request and so the caller's headers.
 */
export function networkError(where: string, thrown: unknown, headers: Readonly<Record<string, string>>): BillingError {
  const error = typeof thrown === 'object' && thrown !== null ? (thrown as Loose) : undefined;
  const name = typeof error?.name === 'string' && NAME.test(error.name) ? error.name : 'Error';
  const code = codeOf(error);
  const text = typeof error?.message === 'string' ? error.message : String(thrown);
  const cause = new Error(quotable(text, headers, 300));
  Object.defineProperty(cause, 'name', { value: name, writable: true, configurable: true });
  // Only the header line: the frames would be the library's, not the failure's.
  cause.stack = `${name}: ${cause.message}`;
  if (code !== undefined) Object.assign(cause, { code });
  let message: string;
  if (code !== undefined) message = `${where} failed: ${PHRASES[code] ?? 'network error'} (${code})`;
  else if (name === 'TypeError') {
    // How browsers report a refused connection, a DNS failure and a CORS block alike.
    message = `${where} failed: no response (TypeError); a network error or a CORS block is likely (the browser console says which)`;
  } else message = `${where} failed (${name})`;
  return new BillingError('network', message, { cause });
}
