import { BillingError } from '../errors';
import type { Envelope } from '../wire';
import type { HeaderRecord } from './headers';
import type { HttpResponse } from './http';
import { quotable, redact } from './redact';
import { parseRetryAfter, type RetryPolicy } from './retry-policy';

// Everything here runs on a failure only: a successful call never parses,
// redacts or labels anything.

// The backend's own words on a failed status, if its body has any.
function statusMessage(text: string, headers: HeaderRecord): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return '';
  }
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? quotable(message, headers, 200) : '';
}

/**
 * The `http` error of a status outside 2xx, with `status`, the clamped
 * `Retry-After` and the backend's (redacted) message; 401 and 403 say where
 * to look.
 *
 * @example
 * ```ts
 * if (response.status > 299) throw statusError(response, 'GET /ai/v1/credit/getBalance', secrets, policy);
 * ```
 */
export function statusError(
  response: HttpResponse,
  where: string,
  headers: HeaderRecord,
  policy: RetryPolicy,
): BillingError {
  const { status } = response;
  const retryAfterMs = parseRetryAfter(response.retryAfter, response.date, policy.maxRetryAfterMs);
  const said = statusMessage(response.text, headers);
  const hint =
    status === 401 || status === 403
      ? '; check the headers option (credentials missing, expired or not allowed for this module)'
      : '';
  const message = `HTTP ${status} on ${where}${said === '' ? '' : `: ${said}`}${hint}`;
  return new BillingError('http', message, { status, retryAfterMs });
}

/**
 * The `backend` error of an envelope whose code the call does not expect;
 * its message is redacted against the attempt's headers.
 *
 * @example
 * ```ts
 * if (envelope.code !== 0) throw backendError(envelope, 'GET /ai/v1/credit/getBalance', secrets);
 * ```
 */
export function backendError(envelope: Envelope, where: string, headers: HeaderRecord): BillingError {
  const said = redact(envelope.message, headers).slice(0, 500);
  return new BillingError('backend', `Backend answered code ${envelope.code} on ${where}: ${said}`, {
    backendCode: envelope.code,
  });
}
