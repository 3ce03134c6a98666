import { BillingError } from '../shared/errors';
import type { Envelope } from '../shared/wire';
import { decodeMessage } from './decode';
import type { HeaderRecord } from './headers';
import type { HttpResponse } from './http';
import { quotable, redact } from './redact';
import { parseRetryAfter } from './retry-policy';

// Every error of a request is built here, naming the request as `METHOD url`
// (`where`) with the cause and what to check. All of it runs on a failure
// only: a successful call never parses, redacts or labels anything. A
// production build (lib/shared/dev.ts) keeps the facts (code, status, backend
// code, Retry-After) and a message of `where` and the status: nothing the
// backend or the fetch said is quoted, so describing and redacting go too.

const CHECK_BASE_URL = '; check baseUrl';
const CHECK_HEADERS = '; check the headers option (credentials)';

// The development message of answerError: the backend's message or the
// answer's content type, and where to look.
function described(response: HttpResponse, where: string, headers: HeaderRecord, reason?: string): string {
  const { status, text } = response;
  const type = response.headers.get('content-type');
  const said = decodeMessage(text);
  const shown = type === null ? 'no content type' : quotable(type, headers, 100);
  const hint =
    status === 401 || status === 403
      ? CHECK_HEADERS
      : // A missing type reads as "null", which is not html.
        status === 404 || /html/i.test(type as string) || /^\s*</.test(text)
        ? CHECK_BASE_URL
        : '';
  if (reason !== undefined) {
    const what = said === undefined ? `, ${shown}` : '';
    return `Malformed response body on ${where} (HTTP ${status}${what}): ${reason}${hint}`;
  }
  const detail = said === undefined ? ` (${shown}, not JSON)` : said && `: ${quotable(said, headers, 200)}`;
  return `HTTP ${status} on ${where}${detail}${hint}`;
}

/**
 * The error of an answer the call cannot use: `http` for a status outside
 * 2xx (with `status`, the clamped `Retry-After` and the backend's redacted
 * message), or `decode` for a 2xx body `reason` says is malformed. A body
 * that is not JSON is described by its content type. 401 and 403 point at
 * the headers; 404 and web pages (an SPA fallback, a proxy's page: the usual
 * sign of a wrong baseUrl) at `baseUrl`.
 */
export function answerError(
  response: HttpResponse,
  where: string,
  headers: HeaderRecord,
  maxRetryAfterMs: number,
  reason?: string,
): BillingError {
  const { status } = response;
  const message = __DEV__
    ? described(response, where, headers, reason)
    : reason === undefined
      ? `HTTP ${status} on ${where}`
      : `Malformed response body on ${where} (HTTP ${status})`;
  if (reason !== undefined) return new BillingError('decode', message);
  const get = (name: string) => response.headers.get(name);
  return new BillingError('http', message, {
    status,
    retryAfterMs: parseRetryAfter(get('retry-after'), get('date'), maxRetryAfterMs),
  });
}

/** The `backend` error of an envelope whose code the call does not expect, its message redacted. */
export const backendError = (envelope: Envelope, where: string, headers: HeaderRecord): BillingError =>
  new BillingError(
    'backend',
    __DEV__
      ? `Backend answered code ${envelope.code} on ${where}: ${quotable(envelope.message, headers, 500)}`
      : `Backend answered code ${envelope.code} on ${where}`,
    {
      backendCode: envelope.code,
    },
  );

// A system error code (`ECONNREFUSED`), on the error or its cause.
const CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

// What a user can act on, for the commonest system error codes (Node,
// node-fetch, undici); any other code is shown as it is.
const PHRASES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  ECONNRESET: 'connection reset',
};

/**
 * The error of a fetch that failed, with a copy of the fetch error safe to
 * attach as `cause`: its name and code where they have the shape of one and
 * quote no header value, its message redacted, a one-line stack. Never the
 * error itself, whose fields and nested causes may quote the request. (A
 * production build gives no cause: making it safe is the redaction.)
 *
 * A fetch that threw synchronously (`beforeSending`) or met a missing global
 * (`ReferenceError`) never reached the network: a setup error,
 * `invalid_argument`, never retried. A real fetch rejects instead (a CORS
 * block too is a rejected `TypeError`): `network`, retried.
 */
export function fetchError(
  where: string,
  thrown: unknown,
  headers: HeaderRecord,
  beforeSending: boolean,
): BillingError {
  const setup = beforeSending || thrown instanceof ReferenceError;
  return __DEV__
    ? describedFetchError(where, thrown, headers, setup)
    : setup
      ? new BillingError('invalid_argument', `${where}: no working fetch`)
      : new BillingError('network', `${where} failed`);
}

// The development error of fetchError, with its sanitized cause.
function describedFetchError(where: string, thrown: unknown, headers: HeaderRecord, setup: boolean): BillingError {
  const error = Object(thrown) as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
  const shaped = (value: unknown, shape: RegExp) =>
    typeof value === 'string' && shape.test(value) && redact(value, headers) === value ? value : undefined;
  const name = shaped(error.name, /^[A-Z][A-Za-z]{0,40}(Error|Exception)$/) ?? 'Error';
  const code = shaped(error.code, CODE) ?? shaped((Object(error.cause) as { code?: unknown }).code, CODE);
  const cause: Error & { code?: string } = new Error(
    quotable(typeof error.message === 'string' ? error.message : String(thrown), headers, 300),
  );
  Object.defineProperty(cause, 'name', { value: name });
  cause.stack = `${name}: ${cause.message}`;
  if (code) cause.code = code;
  if (setup) {
    const what = /fetch is not a function/i.test(cause.message)
      ? 'no fetch function'
      : `fetch threw before sending (${name}: ${cause.message})`;
    return new BillingError('invalid_argument', `${where}: ${what}: pass a working \`fetch\` to createClient`, {
      cause,
    });
  }
  const phrase = code
    ? `${PHRASES[code] ?? 'network error'} (${code})`
    : name === 'TypeError'
      ? // How browsers report a refused connection, a DNS failure and a CORS block alike.
        'no response (TypeError): a network error or a CORS block, see the browser console'
      : name;
  return new BillingError('network', `${where} failed: ${phrase}`, { cause });
}
