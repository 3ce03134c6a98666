import type { SchedulerLike, Subscription } from 'rxjs';

/** A promise with the functions that settle it, for code that settles it from elsewhere. */
export function deferred<T = void>() {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject } as const;
}

/** A function that throws `error`: an `onTimeout` or `onAbort` that rejects with what is already known. */
export const throwing = (error: unknown) => (): never => {
  throw error;
};

// The races running on each signal, all told by one listener the first one added and the signal keeps (a
// WeakMap: it goes with the signal). Around a fetch, Node's abort listener costs microseconds to add and
// remove where a Set's entry costs next to nothing, and every attempt races the client's disposal signal;
// a caller's signal shared by many requests holds one listener, not one each.
const racesOn = new WeakMap<AbortSignal, Set<() => void>>();

/** How long `deadline()` lets its work run, and what it ends with otherwise. */
export type DeadlineOptions<T> = {
  /** The caller's signal: an abort ends the race with `onAbort()`. */
  readonly signal?: AbortSignal | undefined;
  /** What the race settles with when time is up: return a value, or throw to reject. */
  readonly onTimeout?: () => T;
  /** What the race settles with on an abort: return a value (or a promise of one), or throw to reject. */
  readonly onAbort?: () => T | PromiseLike<T>;
} &
  // The timer, only where one is asked for: `ms` on `scheduler` (the client's, or its background twin),
  // then the race ends with `onTimeout()`.
  (
    | { readonly scheduler: SchedulerLike; readonly ms?: number }
    | { readonly scheduler?: undefined; readonly ms?: undefined }
  );

/**
 * Runs `work` until the first of: it settles, `ms` pass on the scheduler, or
 * `signal` aborts. The promise settles once, with whichever came first; the
 * timer is gone by then, and the race is off the signal (whose one listener
 * serves every race on it). `work` gets a signal that
 * aborts when the race ends any other way, so it can let go of what it holds.
 * An already aborted `signal` ends the race before `work` starts.
 *
 * @example
 * ```ts
 * const usage = await deadline((raceEnded) => fetchUsage(raceEnded), {
 *   scheduler,
 *   ms: 10_000,
 *   signal,
 *   onTimeout: () => { throw new BillingError('timeout', 'GET /usage timed out'); },
 * });
 * ```
 */
export function deadline<T>(work: (raceEnded: AbortSignal) => Promise<T>, options: DeadlineOptions<T>): Promise<T> {
  const { signal, onTimeout, onAbort } = options;
  const raceEnded = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: Subscription | undefined;
    let races: Set<() => void> | undefined;
    // No `onAbort` or `onTimeout` settles with undefined.
    const finish = (outcome: (() => T | PromiseLike<T>) | undefined, endWork: boolean) => {
      if (settled) return;
      settled = true;
      timer?.unsubscribe();
      races?.delete(aborted);
      if (endWork) raceEnded.abort();
      try {
        resolve(outcome?.() as T);
      } catch (error) {
        reject(error);
      }
    };
    const aborted = () => finish(onAbort, true);
    if (signal?.aborted) return aborted();
    const failed = (error: unknown) => finish(throwing(error), false);
    // The work, then its place on the signal and its timer: a request goes out without waiting for them
    // (in Node, arming a timer or listening to a signal costs more than sending). Its promise is listened to
    // as it is, as a wrapper would cost a promise and a tick; a work that throws at once ends the race as one
    // that rejects.
    try {
      work(raceEnded.signal).then((value) => finish(() => value, false), failed);
    } catch (error) {
      return failed(error);
    }
    if (signal && !(races = racesOn.get(signal))) {
      racesOn.set(signal, (races = new Set()));
      signal.addEventListener('abort', () => racesOn.get(signal)?.forEach((race) => race()));
    }
    races?.add(aborted);
    if (options.ms !== undefined) timer = options.scheduler.schedule(() => finish(onTimeout, true), options.ms);
    // A signal the work aborted while it started was not heard.
    if (signal?.aborted) aborted();
  });
}

/** Resolves after `ms` on the scheduler, or at once when `signal` aborts (a retry's wait, a grace). */
export const sleep = (scheduler: SchedulerLike, ms: number, signal?: AbortSignal): Promise<void> =>
  deadline<void>(() => new Promise<void>(() => undefined), { scheduler, ms, signal });
