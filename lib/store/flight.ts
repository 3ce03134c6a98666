import { abortedError } from '../shared/errors';
import { settleOnce } from './settle-once';

/** One request of a flight: sent (`current`), or queued to go once the one in flight settles. */
interface Request<T> {
  readonly controller: AbortController;
  /** Pending until sent: a queued request its callers all left is never sent, and settles nobody. */
  promise: Promise<T>;
  /** Gives `promise` the request once sent. */
  send: (answer: Promise<T>) => void;
  /** The callers that may still leave; Infinity once one without a signal joined, as nobody can leave for it. */
  callers: number;
}

/** One request shared by the callers that arrive while it is in flight. */
export interface Flight<T> {
  /**
   * Joins the newest request that still has a caller: the one queued (a
   * nudge said the one in flight may be stale), else the one in flight; or
   * sends one (`getUsage()`, `getBalance()`, a refetch trigger).
   *
   * With `nudge` (something changed before now, so only a request sent after
   * this call tells it): joins the one queued, else queues one to go once the
   * request in flight settles, else sends one now. A burst of nudges costs at
   * most one request beyond the one in flight.
   */
  join(signal?: AbortSignal, nudge?: boolean): Promise<T>;
  /** Rejects every caller with `error` and aborts the request in flight (on dispose). */
  stop(error: unknown): void;
}

/**
 * Shared requests, one in flight at a time per nudge: a caller's abort
 * rejects that caller only; a request is aborted, and dropped at once so that
 * nobody joins it, when the last caller that could leave it left. Each caller
 * is settled once (`settleOnce`).
 */
export function flight<T>(start: (controller: AbortController) => Promise<T>): Flight<T> {
  let current: Request<T> | null = null;
  let queued: Request<T> | null = null;
  const waiting = new Set<(error: unknown) => void>();

  const go = (request: Request<T>) => {
    current = request;
    request.send(start(request.controller));
    return request;
  };
  // The queued request goes as soon as nothing is in flight.
  const next = () => {
    const request = queued;
    if (current === null && request !== null) {
      queued = null;
      go(request);
    }
  };
  const make = () => {
    const request = { controller: new AbortController(), callers: 0 } as Request<T>;
    const settled = () => {
      if (current !== request) return;
      current = null;
      next();
    };
    (request.promise = new Promise<T>((resolve) => (request.send = resolve))).then(settled, settled);
    return request;
  };
  return {
    join(signal, nudge) {
      if (signal?.aborted) return Promise.reject(abortedError());
      const request = queued ?? (current === null ? go(make()) : nudge ? (queued = make()) : current);
      request.callers = signal ? request.callers + 1 : Infinity;
      return settleOnce(request.promise, signal, waiting, () => {
        if (--request.callers > 0) return;
        // Nobody waits for it any more: never joined again, and the queued one may go.
        if (queued === request) queued = null;
        if (current === request) current = null;
        request.controller.abort();
        next();
      });
    },
    stop(error) {
      current?.controller.abort();
      current = queued = null;
      waiting.forEach((end) => end(error));
    },
  };
}
