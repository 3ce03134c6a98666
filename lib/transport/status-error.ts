import { BillingError } from '../errors';
import type { Envelope } from '../wire';
import { decodeMessage, MALFORMED } from './decode';
import type { HeaderRecord } from './headers';
import type { HttpResponse } from './http';
import { quotable, redact } from './redact';
import { parseRetryAfter, type RetryPolicy } from './retry-policy';

// Everything here runs on a failure only: a successful call never parses,
// redacts or labels anything.

const CHECK_BASE_URL = '; check baseUrl (origin and path prefix of the billing API)';
const CHECK_HEADERS = '; check the headers option (credentials missing, expired or not allowed for this module)';

// What came back: the backend's message (undefined when the body is not JSON),
// else the content type; and whether it is a web page (an SPA fallback, a
// proxy's page: the usual sign of a wrong baseUrl).
function answered(response: HttpResponse, headers: HeaderRecord) {
  const said = decodeMessage(response.text);
  const type = response.headers.get('content-type');
  return {
    said,
    type: type === null ? 'no content type' : quotable(type, headers, 100),
    page: /html/i.test(type ?? '') || /^\s*</.test(response.text),
  };
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
  const { said, type, page } = answered(response, headers);
  const detail = said === undefined ? ` (${type}, not JSON)` : said === '' ? '' : `: ${quotable(said, headers, 200)}`;
  const hint = status === 401 || status === 403 ? CHECK_HEADERS : status === 404 || page ? CHECK_BASE_URL : '';
  return new BillingError('http', `HTTP ${status} on ${where}${detail}${hint}`, {
    status,
    retryAfterMs: parseRetryAfter(
      response.headers.get('retry-after'),
      response.headers.get('date'),
      policy.maxRetryAfterMs,
    ),
  });
}

/**
 * A `decode` error of a 2xx answer, naming the request, the status and, for
 * a body that is not JSON, its content type; other errors pass unchanged.
 */
export function decodeFailure(error: unknown, where: string, response: HttpResponse, headers: HeaderRecord): unknown {
  if (!(error instanceof BillingError) || error.code !== 'decode') return error;
  const { said, type, page } = answered(response, headers);
  const what = `HTTP ${response.status}${said === undefined ? `, ${type}` : ''}`;
  const reason = error.message.slice(MALFORMED.length);
  return new BillingError(
    'decode',
    `Malformed response body on ${where} (${what}): ${reason}${page ? CHECK_BASE_URL : ''}`,
  );
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
