import { deadline, deferred } from '../shared/deadline';
import { abortedError } from '../shared/errors';

/** How a caller joins a flight. */
export interface JoinOptions {
  /** The caller's abort: it leaves, and the request is aborted if nobody else waits for it. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Which request answers. By default the newest: the one queued, else the
   * one in flight, else a new one. `'after'` (something changed before this
   * call, so only a request sent after it tells it): the one queued, else one
   * queued behind the request in flight, else a new one; a burst costs one
   * follow-up. `'now'`: one sent at once, beside any older one in flight,
   * which no longer answers anyone who joins after (this client's own charge
   * waits on nothing sent before it).
   */
  readonly fresh?: 'after' | 'now';
}

/** One request shared by the callers that arrive while it is in flight. */
export interface Flight<T> {
  /** The answer of the request `options.fresh` picks. */
  join(options?: JoinOptions): Promise<T>;
  /** Rejects every caller with `error` and aborts every request in flight (on dispose). */
  stop(error: unknown): void;
}

/**
 * Shared requests: a caller's abort rejects that caller only; a request is
 * aborted, and dropped at once so that nobody joins it, when the last caller
 * that could leave it left. Answers are ordered by the store's request
 * numbers, so an older request that answers last changes nothing.
 */
export function flight<T>(start: (controller: AbortController) => Promise<T>): Flight<T> {
  // The newest request sent, while in flight; the one queued behind it; every one in flight somebody waits for.
  let current: Request | null = null;
  let queued: Request | null = null;
  const running = new Set<Request>();

  // Never joined again (it settled, or nobody waits for it any more); the queued one may go.
  const drop = (request: Request) => {
    running.delete(request);
    if (queued === request) queued = null;
    if (current === request) current = null;
    // The queued request goes as soon as nothing newer is in flight.
    if (current === null && queued !== null) send(queued);
  };
  const send = (request: Request) => {
    if (queued === request) queued = null;
    current = request;
    running.add(request);
    const sent = start(request.controller);
    // Dropped before its callers resume, so a caller that calls again gets a new request.
    const settled = () => drop(request);
    sent.then(settled, settled);
    sent.then(request.answer.resolve, request.answer.reject);
    return request;
  };
  // One request: sent, or queued to go once the newest one in flight settles. Its answer is pending until
  // it is sent: a queued request its callers all left is never sent, and settles nobody. `callers`: those
  // that may still leave; Infinity once one without a signal joined, as nobody can leave for it.
  const make = () => ({ controller: new AbortController(), answer: deferred<T>(), callers: 0 });
  type Request = ReturnType<typeof make>;
  const pick = (fresh: JoinOptions['fresh']) =>
    fresh === 'now'
      ? send(queued ?? make())
      : (queued ?? (current === null ? send(make()) : fresh ? (queued = make()) : current));
  const leave = (request: Request) => {
    if (--request.callers > 0) return;
    request.controller.abort();
    drop(request);
  };

  return {
    join({ signal, fresh } = {}) {
      if (signal?.aborted) return Promise.reject(abortedError());
      const request = pick(fresh);
      request.callers = signal ? request.callers + 1 : Infinity;
      // The request hears of an abort first, so what it ends is applied by the time the caller resumes.
      return deadline(() => request.answer.promise, {
        signal,
        onAbort: () => {
          leave(request);
          throw abortedError();
        },
      });
    },
    stop(error) {
      for (const request of [...running, queued]) {
        request?.answer.reject(error);
        request?.controller.abort();
      }
      current = queued = null;
    },
  };
}
