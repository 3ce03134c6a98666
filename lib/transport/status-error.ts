import { BillingError } from '../errors';
import type { Envelope } from '../wire';
import { decodeMessage, MALFORMED } from './decode';
import type { HeaderRecord } from './headers';
import type { HttpResponse } from './http';
import { quotable, redact } from './redact';
import { parseRetryAfter, type RetryPolicy } from './retry-policy';

// Everything here runs on a failure only: a successful call never parses,
// redacts or labels anything.

const CHECK_BASE_URL = '; check baseUrl (the origin and path prefix the billing API is served under)';
const CHECK_HEADERS = '; check the headers option (credentials missing, expired or not allowed for this module)';

// What came back when it is not JSON: its content type, and whether it is a web page
// (an SPA fallback or a proxy's page: the usual sign of a wrong baseUrl).
function notJson(response: HttpResponse, headers: HeaderRecord): { what: string; html: boolean } {
  const type = response.headers.get('content-type');
  const html = /html/i.test(type ?? '') || /^\s*</.test(response.text);
  return { what: type === null ? 'no content type' : quotable(type, headers, 100), html };
}

/**
 * The `http` error of a status outside 2xx: the request, `status`, the
 * clamped `Retry-After`, the backend's (redacted) message or, when the body
 * is not JSON, its content type; says what to check for 401, 403, 404 and
 * web pages.
 */
export function statusError(
  response: HttpResponse,
  where: string,
  headers: HeaderRecord,
  policy: RetryPolicy,
): BillingError {
  const { status } = response;
  const retryAfterMs = parseRetryAfter(
    response.headers.get('retry-after'),
    response.headers.get('date'),
    policy.maxRetryAfterMs,
  );
  const said = decodeMessage(response.text);
  let message = `HTTP ${status} on ${where}`;
  let html = false;
  if (said === undefined) {
    const other = notJson(response, headers);
    message += ` (${other.what}, not JSON)`;
    html = other.html;
  } else if (said !== '') {
    message += `: ${quotable(said, headers, 200)}`;
  }
  if (status === 401 || status === 403) message += CHECK_HEADERS;
  else if (status === 404 || html) message += CHECK_BASE_URL;
  return new BillingError('http', message, { status, retryAfterMs });
}

/**
 * A `decode` error of a 2xx answer, naming the request, the status and, for
 * a body that is not JSON, its content type; other errors pass unchanged.
 */
export function decodeFailure(error: unknown, where: string, response: HttpResponse, headers: HeaderRecord): unknown {
  if (!(error instanceof BillingError) || error.code !== 'decode') return error;
  const reason = error.message.startsWith(MALFORMED) ? error.message.slice(MALFORMED.length) : error.message;
  let message = `${MALFORMED.slice(0, -2)} on ${where} (HTTP ${response.status}`;
  if (decodeMessage(response.text) === undefined) {
    const other = notJson(response, headers);
    message += `, ${other.what}): ${reason}`;
    if (other.html) message += `, a web page${CHECK_BASE_URL}`;
  } else {
    message += `): ${reason}`;
  }
  return new BillingError('decode', message);
}

/**
 * The `backend` error of an envelope whose code the call does not expect;
 * its message is redacted against the attempt's headers.
 */
export function backendError(envelope: Envelope, where: string, headers: HeaderRecord): BillingError {
  const said = redact(envelope.message, headers).slice(0, 500);
  return new BillingError('backend', `Backend answered code ${envelope.code} on ${where}: ${said}`, {
    backendCode: envelope.code,
  });
}
