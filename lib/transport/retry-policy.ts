import { BillingError } from '../errors';

/** How failed attempts are retried (contract section 4). */
export interface RetryPolicy {
  readonly retries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this is clamped to it. */
  readonly maxRetryAfterMs: number;
  /** In [0, 1); injectable so tests can pin the jitter. */
  readonly random: () => number;
}

export const defaultRetryPolicy: Omit<RetryPolicy, 'retries'> = {
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  random: Math.random,
};

/** Network errors, timeouts, 429 and 5xx are retryable; nothing else is. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof BillingError)) return false;
  if (error.code === 'network' || error.code === 'timeout') return true;
  return error.code === 'http' && error.status !== undefined && (error.status === 429 || error.status >= 500);
}

/**
 * `Retry-After` in milliseconds, or undefined when absent or malformed. An
 * HTTP date is measured against the response's own `Date` header, so the
 * client's wall clock (which may be wrong) is never read.
 */
export function parseRetryAfter(value: string | null, date: string | null, maxMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) {
    ms = Number(text) * 1000;
  } else {
    const at = Date.parse(text);
    const reference = date === null ? NaN : Date.parse(date);
    if (Number.isNaN(at) || Number.isNaN(reference)) return undefined;
    ms = at - reference;
  }
  return Math.min(Math.max(ms, 0), maxMs);
}

/** Exponential backoff with full jitter, or the server's `Retry-After`. */
export function retryDelayMs(error: BillingError, attempt: number, policy: RetryPolicy): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(policy.random() * ceiling);
}
