import type { BillingError } from '../shared/errors';

// Fixed, no option changes them: the backoff's base 250 ms and ceiling 8 s, and the 30 s a longer
// `Retry-After` is clamped to.
const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * The retry policy's defaults (contract section 4): the jitter's source, in
 * [0, 1), which tests replace to pin the jitter. The number of retries is the
 * client's option, added by {@link RetryPolicy}.
 */
export const defaultRetryPolicy = { random: Math.random };

/** The retry policy of a client: the defaults and its `retries`. */
export type RetryPolicy = Readonly<typeof defaultRetryPolicy & { retries: number }>;

/** Network errors, timeouts, 429 and 5xx are retryable; nothing else is. */
export const isRetryable = ({ code, status = 0 }: BillingError): boolean =>
  code === 'network' || code === 'timeout' || (code === 'http' && (status === 429 || status >= 500));

/**
 * `Retry-After` in milliseconds, clamped, or undefined when absent or malformed. An
 * HTTP date is measured against the response's own `Date` header, so the
 * client's wall clock (which may be wrong) is never read.
 */
export function parseRetryAfter(value: string | null, date: string | null): number | undefined {
  const text = (value ?? '').trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - Date.parse(date ?? '');
  return isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** Exponential backoff with full jitter, or the server's `Retry-After`. */
export const retryDelayMs = (error: BillingError, attempt: number, policy: RetryPolicy): number =>
  error.retryAfterMs ?? Math.floor(policy.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt));
