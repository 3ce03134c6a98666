import { deadline, sleep, throwing } from '../shared/deadline';
import type { BillingError } from '../shared/errors';
import { attempt } from './attempt';
import type { Call, CallOptions, TransportConfig } from './config';
import { isRetryable, retryDelayMs } from './retry-policy';

/**
 * Sends one request: attempts (attempt.ts) until one gives an answer the call
 * can read, or a failure that is final. A 401 is sent again once after
 * `onUnauthorized`; a retryable failure (retry-policy.ts) is sent again after
 * its delay, at most `policy.retries` times, announced by `onRetry`. Nothing
 * it does (a timeout, an abort) touches another request. `onSend` runs as
 * each attempt goes out. Every rejection is a `BillingError`. `reauthorize`
 * gives the pending `onUnauthorized` that concurrent 401s share, or a new one.
 */
export async function request<T>(
  config: TransportConfig,
  reauthorize: () => Promise<void>,
  call: Call<T>,
  options: CallOptions = {},
  body?: string,
): Promise<T> {
  const { scheduler, timeoutMs, policy } = config;
  const { signal } = options;
  let retries = 0;
  let reauthorized = false;
  for (let attempts = 1; ; attempts += 1) {
    try {
      return await attempt(config, call, options, body);
    } catch (thrown) {
      const failure = thrown as BillingError;
      // Once per request, a 401 waits for the shared onUnauthorized, then is sent again.
      const unauthorized = failure.status === 401 && !reauthorized && config.onUnauthorized !== undefined;
      if (!unauthorized && (retries >= policy.retries || !isRetryable(failure))) throw failure;
      const delayMs = unauthorized ? null : retryDelayMs(failure, retries++, policy);
      // The events feature's hook, which never throws.
      config.onRetry?.({ attempt: attempts + 1, delayMs, path: call.path, error: failure });
      // An abort ends either wait at once; the next attempt then rejects `aborted` and sends nothing.
      if (unauthorized) {
        // Bounded like an attempt. What it threw may quote a credential, and its timeout is no answer
        // either: the 401 is.
        reauthorized = true;
        const rejectWith401 = throwing(failure);
        await deadline(() => reauthorize().catch(rejectWith401), {
          scheduler,
          ms: timeoutMs,
          signal,
          onTimeout: rejectWith401,
        });
      } else await sleep(scheduler, delayMs!, signal);
    }
  }
}
