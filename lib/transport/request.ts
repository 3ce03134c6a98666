import { Observable, type Subscription } from 'rxjs';
import { BillingError } from '../errors';
import { decodeEnvelope } from './decode';
import { checkedHeaders, invalid, type HeaderRecord } from './headers';
import { exchange, type HttpResponse } from './http';
import { networkError } from './network-error';
import type { Call, CallContext, ReadEnvelope } from './config';
import { isRetryable, retryDelayMs } from './retry-policy';
import type { Lease } from './signals';
import { statusError } from './status-error';

export type { Call, CallContext, ReadEnvelope, RetryNotice, TransportConfig } from './config';

const NO_HEADERS: HeaderRecord = {};

// Built on a failure only: URL parsing is not free on the hot path.
const pathLabel = (call: Call) => `${call.method} ${new URL(call.url).pathname}`;

function allHeaders(call: Call, headers: HeaderRecord): Record<string, string> {
  // A fresh object per attempt: a fetch may keep or change what it is given.
  const all: Record<string, string> = { accept: 'application/json', ...headers };
  if (call.body !== undefined) all['content-type'] = 'application/json';
  return all;
}

/**
 * Sends a call with headers, timeout, retries and 401 recovery; emits what
 * `read` makes of the envelope once. `onSend` runs as each attempt goes out,
 * so the caller can number the attempt whose answer it gets (a retry is
 * newer than what was sent before it). Unsubscribing aborts the request in
 * flight and cancels any timer. One hand-written Observable per call: no
 * operator pipeline is built per request.
 *
 * @example
 * ```ts
 * call$(context, balanceCall, (envelope) => decodeBalance(envelope)).subscribe(console.log);
 * ```
 */
export function call$<T>(context: CallContext, call: Call, read: ReadEnvelope<T>, onSend?: () => void): Observable<T> {
  return new Observable<T>((subscriber) => {
    const { config } = context;
    const { scheduler, timeoutMs, policy } = config;
    let started = 0;
    let retried = 0;
    let reauthorized = false;
    // Bumped by every step, so a late callback of an older step does nothing.
    let turn = 0;
    let timer: Subscription | undefined;
    let lease: Lease | undefined;

    const clearTimer = () => {
      timer?.unsubscribe();
      timer = undefined;
    };

    const failed = (error: unknown) => {
      clearTimer();
      if (retried >= policy.retries || !isRetryable(error)) {
        subscriber.error(error);
        return;
      }
      const delayMs = retryDelayMs(error as BillingError, retried, policy);
      retried += 1;
      turn += 1;
      timer = scheduler.schedule(attempt, delayMs);
      try {
        config.onRetry?.({ attempt: started + 1, delayMs, path: call.path });
      } catch {
        // A hook never breaks a request.
      }
    };

    const answered = (response: HttpResponse, headers: HeaderRecord) => {
      const { status } = response;
      if (status < 200 || status > 299) {
        const error = statusError(response, call.where, headers, policy);
        if (status === 401 && !reauthorized && config.onUnauthorized !== undefined) recover(error);
        else failed(error);
        return;
      }
      let value: T;
      try {
        value = read(decodeEnvelope(response.text), headers);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      subscriber.next(value);
      subscriber.complete();
    };

    // Once per call: wait for the wave's onUnauthorized (bounded like headers), then send again.
    const recover = (error: BillingError) => {
      reauthorized = true;
      const mine = ++turn;
      timer = scheduler.schedule(() => {
        if (mine === turn) failed(error);
      }, timeoutMs);
      context.reauthorize().then(
        () => {
          if (mine !== turn) return;
          clearTimer();
          attempt();
        },
        () => {
          // The thrown value may quote a credential: the 401 is the answer.
          if (mine === turn) failed(error);
        },
      );
    };

    const send = (mine: number, headers: HeaderRecord, budgetMs: number) => {
      // Lost when another request's timeout aborted the shared signal: sent again at once, same body, not a retry.
      // The turn moves at once, so the aborted exchange's late rejection is ignored; the re-send waits a
      // microtask, so requests unsubscribed together (dispose) send nothing again.
      const held = context.signals.lease(() => {
        if (mine !== turn) return;
        clearTimer();
        const lost = ++turn;
        queueMicrotask(() => {
          if (lost !== turn) return;
          started += 1;
          send(++turn, headers, timeoutMs);
        });
      });
      lease = held;
      const init: RequestInit = { method: call.method, headers: allHeaders(call, headers), signal: held.signal };
      if (call.body !== undefined) init.body = call.body;
      timer = scheduler.schedule(() => {
        if (mine !== turn) return;
        turn += 1;
        lease = undefined;
        held.timedOut();
        failed(new BillingError('timeout', `${pathLabel(call)} timed out after ${budgetMs} ms`));
      }, budgetMs);
      onSend?.();
      exchange(config.fetch, call.url, init).then(
        (response) => {
          held.settled();
          if (mine !== turn) return;
          lease = undefined;
          clearTimer();
          answered(response, headers);
        },
        (error: unknown) => {
          held.settled();
          // Our own abort (a timeout, an unsubscribe) bumped the turn: nobody listens.
          if (mine !== turn) return;
          lease = undefined;
          // A fetch error may quote the request, which carries the caller's headers: redacted.
          failed(networkError(pathLabel(call), error, headers));
        },
      );
    };

    function attempt(): void {
      timer = undefined;
      started += 1;
      const mine = ++turn;
      const option = config.headers;
      if (typeof option !== 'function') {
        // A record or a Headers may change between attempts, so it is checked each time.
        let headers: HeaderRecord;
        try {
          headers = option === undefined ? NO_HEADERS : checkedHeaders(option);
        } catch (error) {
          failed(error);
          return;
        }
        send(mine, headers, timeoutMs);
        return;
      }
      // One budget per attempt covers waiting for the headers and the whole exchange.
      const began = scheduler.now();
      timer = scheduler.schedule(() => {
        if (mine === turn)
          failed(new BillingError('timeout', `${call.where} timed out after ${timeoutMs} ms waiting for headers`));
      }, timeoutMs);
      new Promise((resolve) => resolve(option())).then(
        (given) => {
          if (mine !== turn) return;
          clearTimer();
          let headers: HeaderRecord;
          try {
            headers = checkedHeaders(given);
          } catch (error) {
            failed(error);
            return;
          }
          send(mine, headers, Math.max(1, timeoutMs - (scheduler.now() - began)));
        },
        // The thrown value may quote a credential, so it is not passed on.
        () => {
          if (mine === turn) failed(invalid('The headers option function threw or rejected'));
        },
      );
    }

    attempt();
    return () => {
      turn += 1;
      clearTimer();
      // A request nobody waits for is aborted; the others sharing its signal send again (see signals.ts).
      const live = lease;
      lease = undefined;
      live?.abandoned();
    };
  });
}
