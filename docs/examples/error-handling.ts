// docs/errors.md "Errors", type-checked.
import { isBillingError } from 'unified-billing';

declare function showTopUp(): void;
declare function offerRetry(externalId?: string, afterMs?: number): void;
declare function signIn(): void;
declare function reportBug(error: Error): void;

export function onBillingError(error: unknown): void {
  if (!isBillingError(error)) throw error;
  switch (error.code) {
    case 'insufficient_credits': // backend 20101: nothing charged, no free period
      return showTopUp();
    case 'network': // no answer after the retries; error.cause says why (ECONNREFUSED, DNS, CORS…)
    case 'timeout': // no answer within timeoutMs, after the retries
      // On a consume the backend may have charged: offer a retry with the same id.
      return offerRetry(error.externalId);
    case 'http':
      // 401/403: the token in the headers option is missing or expired; sign in again.
      if (error.status === 401 || error.status === 403) return signIn();
      // 429/5xx after the retries: try again later (error.retryAfterMs when the server said).
      return offerRetry(error.externalId, error.retryAfterMs);
    case 'backend': // the backend answered with another code (error.backendCode); nothing charged
    case 'decode': // an answer the client could not read; the cache is unchanged
      return reportBug(error);
    case 'aborted': // your AbortSignal fired
    case 'disposed': // the client was disposed (sign-out, unmount): nobody is waiting
      return;
    case 'invalid_argument': // a bug in the calling code (bad option or id); nothing was sent
      return reportBug(error);
  }
}
