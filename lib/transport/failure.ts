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

/** The request an error is about: `where` names it (`METHOD url`); no message quotes its `headers`. */
export type FailedRequest = { readonly where: string; readonly headers: HeaderRecord };

// The development message of an answer's error: the backend's message or the
// answer's content type, and where to look; `reason` says why a 2xx body is malformed.
function answerMessage(response: HttpResponse, { where, headers }: FailedRequest, reason?: string): string {
  const { status, text } = response;
  const type = response.headers.get('content-type');
  const backendMessage = decodeMessage(text);
  const typeText = type === null ? 'no content type' : quotable(type, headers, 100);
  const hint =
    status === 401 || status === 403
      ? '; check the headers option (credentials)'
      : // A missing type reads as "null", which is not html.
        status === 404 || /html/i.test(type as string) || /^\s*</.test(text)
        ? '; check baseUrl'
        : '';
  if (reason !== undefined) {
    const typePart = backendMessage === undefined ? `, ${typeText}` : '';
    return `Malformed response body on ${where} (HTTP ${status}${typePart}): ${reason}${hint}`;
  }
  const detail =
    backendMessage === undefined
      ? ` (${typeText}, not JSON)`
      : backendMessage && `: ${quotable(backendMessage, headers, 200)}`;
  return `HTTP ${status} on ${where}${detail}${hint}`;
}

/**
 * The `http` error of a status outside 2xx, with `status`, the clamped
 * `Retry-After` and the backend's redacted message. A body that is not JSON
 * is described by its content type. 401 and 403 point at the headers; 404
 * and web pages (an SPA fallback, a proxy's page: the usual sign of a wrong
 * baseUrl) at `baseUrl`.
 */
export function answerError(response: HttpResponse, request: FailedRequest): BillingError {
  const { status, headers: answered } = response;
  return new BillingError('http', __DEV__ ? answerMessage(response, request) : `HTTP ${status} on ${request.where}`, {
    status,
    retryAfterMs: parseRetryAfter(answered.get('retry-after'), answered.get('date')),
  });
}

/** The `decode` error of a 2xx body that `reason` says is malformed, described as {@link answerError} does. */
export const malformedError = (response: HttpResponse, request: FailedRequest, reason: string) =>
  new BillingError(
    'decode',
    __DEV__
      ? answerMessage(response, request, reason)
      : `Malformed response body on ${request.where} (HTTP ${response.status})`,
  );

/** The `backend` error of an envelope whose code the call does not expect, its message redacted. */
export const backendError = (envelope: Envelope, { where, headers }: FailedRequest): BillingError =>
  new BillingError(
    'backend',
    `Backend answered code ${envelope.code} on ${where}${__DEV__ ? `: ${quotable(envelope.message, headers, 500)}` : ''}`,
    { backendCode: envelope.code },
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
 * The code is decided here, once: a fetch that threw synchronously
 * (`beforeSending`) or met a missing global (`ReferenceError`) never reached
 * the network: a setup error, `invalid_argument`. A real fetch rejects
 * instead (a CORS block too is a rejected `TypeError`): `network`.
 */
export function fetchError(thrown: unknown, request: FailedRequest, beforeSending?: boolean): BillingError {
  const code = beforeSending || thrown instanceof ReferenceError ? 'invalid_argument' : 'network';
  return __DEV__
    ? describedFetchError(code, thrown, request)
    : new BillingError(code, code === 'network' ? `${request.where} failed` : `${request.where}: no working fetch`);
}

// The development error of fetchError: what happened, in words a user can act on, and as its cause a
// sanitized copy of the fetch error.
function describedFetchError(code: 'invalid_argument' | 'network', thrown: unknown, { where, headers }: FailedRequest) {
  const error = Object(thrown) as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
  const ifShaped = (value: unknown, shape: RegExp) =>
    typeof value === 'string' && shape.test(value) && redact(value, headers) === value ? value : undefined;
  const name = ifShaped(error.name, /^[A-Z][A-Za-z]{0,40}(Error|Exception)$/) ?? 'Error';
  const systemCode = ifShaped(error.code, CODE) ?? ifShaped((Object(error.cause) as { code?: unknown }).code, CODE);
  const message = quotable(typeof error.message === 'string' ? error.message : String(thrown), headers, 300);
  const cause: Error & { code?: string } = new Error(message);
  Object.defineProperty(cause, 'name', { value: name });
  cause.stack = `${name}: ${message}`;
  if (systemCode) cause.code = systemCode;
  if (code === 'invalid_argument') {
    const what = /fetch is not a function/i.test(message)
      ? 'no fetch function'
      : `fetch threw before sending (${name}: ${message})`;
    return new BillingError(code, `${where}: ${what}: pass a working \`fetch\` to createClient`, { cause });
  }
  const phrase = systemCode
    ? `${PHRASES[systemCode] ?? 'network error'} (${systemCode})`
    : name === 'TypeError'
      ? // How browsers report a refused connection, a DNS failure and a CORS block alike.
        'no response (TypeError): a network error or a CORS block, see the browser console'
      : name;
  return new BillingError(code, `${where} failed: ${phrase}`, { cause });
}
