import type { BillingAction } from '../core/actions';
import { BillingError, abortedError } from '../errors';
import type { BillingApi } from '../transport/billing-api';

/** What a request of the engine uses of its client. */
export interface LoadContext {
  readonly api: BillingApi;
  readonly dispatch: (action: BillingAction) => void;
  readonly now: () => number;
  /** The next request number, taken as an attempt goes out (a retry is newer than what was sent before it). */
  readonly stamp: () => number;
}

/** One request shared by the callers that arrive while it is in flight. */
export interface Flight<T> {
  /** Joins the request in flight, or starts one (always with `fresh`, which later callers join). */
  join(signal?: AbortSignal, fresh?: boolean): Promise<T>;
  /** Rejects every caller with `error` and aborts every request in flight (on dispose). */
  stop(error: unknown): void;
}

/**
 * A caller's abort rejects that caller; the request itself is aborted only
 * once every caller left. Nothing is shared with any other request.
 */
export function flight<T>(start: (controller: AbortController) => Promise<T>): Flight<T> {
  // `waiting` counts the callers with a signal; Infinity once one without joined, as nobody can leave it.
  let current: { controller: AbortController; promise: Promise<T>; waiting: number } | null = null;
  // Every caller still waiting, so `stop` tells each one why.
  const stops = new Set<(error: unknown) => void>();
  return {
    join(signal, fresh) {
      if (signal?.aborted) return Promise.reject(abortedError());
      let joined = fresh ? null : current;
      if (joined === null) {
        const controller = new AbortController();
        const started = (current = joined = { controller, promise: start(controller), waiting: 0 });
        const end = () => {
          if (current === started) current = null;
        };
        started.promise.then(end, end);
      }
      const flown = joined;
      flown.waiting = signal ? flown.waiting + 1 : Infinity;
      return new Promise<T>((resolve, reject) => {
        const done = () => {
          stops.delete(kill);
          signal?.removeEventListener('abort', leave);
        };
        const kill = (error: unknown) => {
          done();
          reject(error);
          flown.controller.abort();
        };
        const leave = () => {
          done();
          if (--flown.waiting === 0) flown.controller.abort();
          reject(abortedError());
        };
        stops.add(kill);
        signal?.addEventListener('abort', leave);
        flown.promise.then(
          (value) => (done(), resolve(value)),
          (error: unknown) => (done(), reject(error)),
        );
      });
    },
    stop(error) {
      current = null;
      stops.forEach((kill) => kill(error));
    },
  };
}

/**
 * `getUsage()`'s request: both GETs in parallel, numbered as each attempt goes
 * out; one `usage/loaded` once both are in, or the first error (the other is
 * aborted). The fact is dispatched before the callers hear of it, so each
 * reads the cache with the answer applied.
 */
export async function fetchUsage({ api, dispatch, now, stamp }: LoadContext, controller: AbortController) {
  const { signal } = controller;
  let seq = 0;
  let balanceSeq = 0;
  dispatch({ type: 'usage/started' });
  try {
    const [count, creditsBalance] = await Promise.all([
      api.freeCount({ signal, onSend: () => (seq = stamp()) }),
      api.balance({ signal, onSend: () => (balanceSeq = stamp()) }),
    ]);
    dispatch({ type: 'usage/loaded', seq, balanceSeq, quota: { ...count, creditsBalance }, now: now() });
  } catch (error) {
    controller.abort();
    dispatch({ type: 'usage/failed', error: error as BillingError });
    throw error;
  }
}

/** The balance request (`refreshCredits()`, `getBalance()`, the refresh after a charge or a refusal). */
export async function fetchBalance({ api, dispatch, stamp }: LoadContext, { signal }: AbortController) {
  let seq = 0;
  try {
    const balance = await api.balance({ signal, onSend: () => (seq = stamp()) });
    dispatch({ type: 'balance/loaded', seq, balance });
    return balance;
  } catch (error) {
    dispatch({ type: 'balance/failed', error: error as BillingError });
    throw error;
  }
}
