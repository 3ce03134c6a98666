import { BillingError } from '../errors';
import type { Call, CallContext, CallOptions, ReadEnvelope } from './config';
import { decodeEnvelope } from './decode';
import { checkedHeaders, invalid, type HeaderRecord } from './headers';
import { exchange, type HttpResponse } from './http';
import { fetchError } from './network-error';
import { isRetryable, retryDelayMs } from './retry-policy';
import { decodeFailure, statusError } from './status-error';

export type { Call, CallContext, CallOptions, ReadEnvelope, RetryNotice, TransportConfig } from './config';

const NO_HEADERS: HeaderRecord = {};

const abortedError = () => new BillingError('aborted', 'The call was aborted');

/**
 * Settles as `work` does, unless the caller's `signal` aborts first (rejects
 * `aborted`) or `ms` pass on the scheduler: then it rejects with `late()`, or
 * resolves if that gives nothing (a retry's delay). Either one aborts
 * `controller`, so the fetch it signals stops; nothing else is touched.
 */
function bounded<T>(
  context: CallContext,
  signal: AbortSignal | undefined,
  ms: number,
  work: Promise<T>,
  late: () => BillingError | undefined,
  controller?: AbortController,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const end = () => {
      timer?.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    };
    const stop = (error: BillingError | undefined) => {
      end();
      controller?.abort();
      if (error === undefined) resolve(undefined as T);
      else reject(error);
    };
    const onAbort = () => stop(abortedError());
    const timer = signal?.aborted ? undefined : context.config.scheduler.schedule(() => stop(late()), ms);
    if (timer === undefined) stop(abortedError());
    else signal?.addEventListener('abort', onAbort);
    work.then(
      (value) => {
        end();
        resolve(value);
      },
      (error: unknown) => {
        end();
        reject(error);
      },
    );
  });
}

function allHeaders(headers: HeaderRecord, body: string | undefined): Record<string, string> {
  // A fresh object per attempt: a fetch may keep or change what it is given.
  const all: Record<string, string> = { accept: 'application/json', ...headers };
  if (body !== undefined) all['content-type'] = 'application/json';
  return all;
}

/**
 * Sends one request: headers, a timeout per attempt, retries, 401 recovery;
 * resolves with what `read` makes of the envelope. The request has its own
 * abort controller per attempt, linked to the caller's `signal`: nothing it
 * does (a timeout, an abort) touches another request. `onSend` runs as each
 * attempt goes out. With static headers the first attempt goes out before
 * this returns. Every rejection is a `BillingError`.
 */
export async function request<T>(
  context: CallContext,
  call: Call,
  read: ReadEnvelope<T>,
  { signal, onSend }: CallOptions = {},
  body?: string,
): Promise<T> {
  const { config } = context;
  const { scheduler, timeoutMs, policy } = config;
  let attempts = 0;
  let retried = 0;
  let reauthorized = false;
  for (;;) {
    let headers = NO_HEADERS;
    let failure: unknown;
    attempts += 1;
    try {
      if (signal?.aborted) throw abortedError();
      const option = config.headers;
      let budgetMs = timeoutMs;
      if (typeof option === 'function') {
        // One budget per attempt covers waiting for the headers and the whole exchange.
        const began = scheduler.now();
        const given = await bounded(
          context,
          signal,
          timeoutMs,
          // What it threw may quote a credential, so it is not passed on.
          new Promise((resolve) => resolve(option())).catch(() => {
            throw invalid('The headers option function threw or rejected');
          }),
          () => new BillingError('timeout', `${call.where} timed out after ${timeoutMs} ms waiting for headers`),
        );
        headers = checkedHeaders(given);
        budgetMs = Math.max(1, timeoutMs - (scheduler.now() - began));
      } else if (option !== undefined) {
        // A record or a Headers may change between attempts, so it is checked each time.
        headers = checkedHeaders(option);
      }
      const controller = new AbortController();
      const init: RequestInit = { method: call.method, headers: allHeaders(headers, body), signal: controller.signal };
      if (body !== undefined) init.body = body;
      onSend?.();
      let pending: Promise<HttpResponse>;
      try {
        pending = exchange(config.fetch, call.url, init);
      } catch (thrown) {
        throw fetchError(call.where, thrown, headers, true);
      }
      const response = await bounded(
        context,
        signal,
        budgetMs,
        pending.catch((thrown: unknown) => {
          // A fetch error may quote the request, which carries the caller's headers: redacted.
          throw fetchError(call.where, thrown, headers, false);
        }),
        () => new BillingError('timeout', `${call.where} timed out after ${budgetMs} ms`),
        controller,
      );
      const { status } = response;
      if (status >= 200 && status <= 299) {
        try {
          return read(decodeEnvelope(response.text), headers);
        } catch (error) {
          throw decodeFailure(error, call.where, response, headers);
        }
      }
      const error = statusError(response, call.where, headers, policy);
      if (status === 401 && !reauthorized && config.onUnauthorized !== undefined) {
        // Once per request: wait for the wave's onUnauthorized (bounded like headers), then send again.
        reauthorized = true;
        try {
          await bounded(context, signal, timeoutMs, context.reauthorize(), () => error);
        } catch (thrown) {
          // What onUnauthorized threw may quote a credential: the 401 is the answer.
          throw thrown instanceof BillingError && thrown.code === 'aborted' ? thrown : error;
        }
        continue;
      }
      failure = error;
    } catch (thrown) {
      // Every rejection is a BillingError: anything else came from the fetch's response (one
      // without `headers`, a `text()` that throws), so it counts as a failed exchange.
      failure = thrown instanceof BillingError ? thrown : fetchError(call.where, thrown, headers, false);
    }
    if (retried >= policy.retries || !isRetryable(failure)) throw failure;
    const delayMs = retryDelayMs(failure as BillingError, retried, policy);
    retried += 1;
    try {
      config.onRetry?.({ attempt: attempts + 1, delayMs, path: call.path });
    } catch {
      // A hook never breaks a request.
    }
    await bounded(context, signal, delayMs, new Promise<void>(() => {}), () => undefined);
  }
}
