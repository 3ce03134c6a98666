import { BillingError, abortedError } from '../shared/errors';
import type { Call, CallContext, CallOptions } from './config';
import { decodeEnvelope } from './decode';
import { answerError, fetchError } from './failure';
import { checkedHeaders, invalid, type HeaderRecord } from './headers';
import { exchange } from './http';
import { isRetryable, retryDelayMs } from './retry-policy';

export type { Call, CallContext, CallOptions, ReadEnvelope, RetryNotice, TransportConfig } from './config';

const JSON_TYPE = 'application/json';
/**
 * Sends one request: headers, a timeout per attempt, retries, 401 recovery;
 * resolves with what the call's `read` makes of the envelope. Each attempt has its own
 * abort controller and timer, linked to the caller's `signal`: nothing it does
 * (a timeout, an abort) touches another request. `onSend` runs as each
 * attempt goes out. With static headers the first attempt goes out before
 * this returns. Every rejection is a `BillingError`.
 */
export async function request<T>(
  { config, reauthorize }: CallContext,
  { method, url, path, where, read }: Call<T>,
  { signal, onSend }: CallOptions = {},
  body?: string,
): Promise<T> {
  const { scheduler, timeoutMs, policy, headers: option } = config;

  // Settles as `work` does, unless the caller's signal aborts first (rejects
  // `aborted`) or `ms` pass on the scheduler (rejects with `late()`, or
  // resolves if it gives nothing: a retry's delay). Either aborts `controller`.
  const within = <R>(
    work: Promise<R>,
    ms: number,
    late: () => BillingError | void,
    controller?: AbortController,
  ): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const done = () => {
        timer.unsubscribe();
        signal?.removeEventListener('abort', stop);
      };
      // Also the caller's abort listener: an Event means `aborted`.
      const stop = (error?: BillingError | void | Event) => {
        done();
        controller?.abort();
        if (error instanceof BillingError) reject(error);
        else if (error) reject(abortedError());
        else resolve(undefined as R);
      };
      const timer = scheduler.schedule(() => stop(late()), ms);
      if (signal?.aborted) stop(abortedError());
      else signal?.addEventListener('abort', stop);
      work.finally(done).then(resolve, reject);
    });

  let attempts = 0;
  let retried = 0;
  let reauthorized = false;
  for (;;) {
    let headers: HeaderRecord = {};
    let sent = false;
    let failure: BillingError;
    attempts += 1;
    try {
      if (signal?.aborted) throw abortedError();
      // One controller and one timer per attempt, covering the headers and the whole exchange.
      const controller = new AbortController();
      const attempt = async () => {
        if (typeof option === 'function') {
          let given: unknown;
          try {
            given = await option();
          } catch {
            // What it threw may quote a credential, so it is not passed on.
            throw invalid(__DEV__ ? 'The headers option function threw or rejected' : 'invalid headers');
          }
          // Timed out or aborted while waiting: this attempt is over, nothing is sent.
          if (controller.signal.aborted) throw abortedError();
          headers = checkedHeaders(given);
        } else if (option !== undefined) {
          // A record or a Headers may change between attempts, so it is checked each time.
          headers = checkedHeaders(option);
        }
        // A fresh object per attempt: a fetch may keep or change what it is given.
        const all: Record<string, string> = { accept: JSON_TYPE, ...headers };
        if (body !== undefined) all['content-type'] = JSON_TYPE;
        onSend?.();
        sent = true;
        try {
          return exchange(config.fetch, url, { method, headers: all, body, signal: controller.signal });
        } catch (thrown) {
          throw fetchError(where, thrown, headers, true);
        }
      };
      const response = await within(
        attempt(),
        timeoutMs,
        () =>
          new BillingError(
            'timeout',
            `${where} timed out after ${timeoutMs} ms${__DEV__ && !sent ? ' waiting for headers' : ''}`,
          ),
        controller,
      );
      const { status } = response;
      if (status >= 200 && status <= 299) {
        try {
          return read(decodeEnvelope(response.text), headers);
        } catch (error) {
          throw (error as BillingError).code === 'decode'
            ? answerError(response, where, headers, policy.maxRetryAfterMs, (error as BillingError).message)
            : error;
        }
      }
      const error = answerError(response, where, headers, policy.maxRetryAfterMs);
      if (status === 401 && !reauthorized && config.onUnauthorized !== undefined) {
        // Once per request: wait for the wave's onUnauthorized (bounded like an attempt), then send again.
        reauthorized = true;
        try {
          await within(reauthorize(), timeoutMs, () => error);
        } catch (thrown) {
          // What onUnauthorized threw may quote a credential: the 401 is the answer.
          throw (thrown as BillingError).code === 'aborted' ? thrown : error;
        }
        continue;
      }
      throw error;
    } catch (thrown) {
      // Anything but a BillingError came from the fetch or its response (one
      // without `headers`, a `text()` that throws): a failed exchange.
      failure = thrown instanceof BillingError ? thrown : fetchError(where, thrown, headers, false);
    }
    if (retried >= policy.retries || !isRetryable(failure)) throw failure;
    const delayMs = retryDelayMs(failure, retried++, policy);
    try {
      config.onRetry?.({ attempt: attempts + 1, delayMs, path });
    } catch {
      // A hook never breaks a request.
    }
    await within(new Promise<void>(() => {}), delayMs, () => undefined);
  }
}
