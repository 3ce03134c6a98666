import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { realTurn } from './real-timers';

/**
 * Options of {@link createTestClock}.
 *
 * @example
 * ```ts
 * const clock = createTestClock({ start: 0, wall: Date.UTC(2026, 0, 1) });
 * ```
 */
export interface TestClockOptions {
  /** What `now()` reads first; 0 by default. */
  readonly start?: number;
  /** What `wallNow()` reads first (ms since the epoch); `Date.now()` when the clock is made, by default. */
  readonly wall?: number;
}

/**
 * A clock a test moves by hand, passed as the client's `scheduler`: every
 * timer of the client (the end of a free period, the countdown, a request's
 * timeout, a retry's backoff) waits until `advance` reaches it. See
 * {@link createTestClock}.
 *
 * @example
 * ```ts
 * const clock: TestClock = createTestClock();
 * clock.advance(30_000);
 * ```
 */
export interface TestClock extends SchedulerLike {
  /** The clock's time in ms: `start` plus everything advanced. */
  now(): number;
  /**
   * The wall clock the client shares between tabs and reloads and writes in
   * `snapshot()`: `wall` plus everything advanced.
   */
  wallNow(): number;
  /**
   * Moves the clock `ms` forward, running every timer due by then in the order
   * they are due (in the order they were armed when due together), each at its
   * own time; a timer one of them arms runs too if it is due by then. Nothing
   * runs asynchronously: await the client's promises after it as usual.
   */
  advance(ms: number): void;
  /** How many timers are armed and not yet run: 0 once a disposed client left none behind. */
  pending(): number;
  /**
   * Awaits `promise` while moving the clock: lets the event loop turn (so the
   * in-process backend answers), then runs the next armed timer, until the
   * promise settles; resolves or rejects as it does. A retry's backoff, a
   * timeout, a free period: whatever the call waits for on this clock. Rejects
   * with an `Error` instead of hanging when nothing armed on the clock is left
   * to run, or when the next timer is due more than `maxMs` after the start.
   * Under Jest's or Vitest's fake timers, it turns the real event loop.
   * A real server or a `delay` fault is time the clock does not see: the
   * client's timeout, armed on the clock, may run before the answer.
   */
  settle<T>(promise: PromiseLike<T>, options?: SettleOptions): Promise<T>;
}

/**
 * Options of {@link TestClock.settle}.
 *
 * @example
 * ```ts
 * const result = await clock.settle(client.billing.consume(), { maxMs: 60_000 });
 * ```
 */
export interface SettleOptions {
  /** How far the clock may move, in ms: default 300000 (5 minutes, past every retry of the defaults). */
  readonly maxMs?: number;
}

interface Timer {
  readonly due: number;
  readonly seq: number;
  readonly run: () => void;
  readonly action: Subscription;
}

/**
 * Makes a {@link TestClock}: a small RxJS scheduler on virtual time, so a test
 * gets past the 30 s free period in no time. It never reads the real clock
 * after it is made, and `advance` runs timers synchronously.
 *
 * @example
 * ```ts
 * import { createClient, isBillingError } from 'unified-billing';
 * import { createReferenceBackend, createTestClock } from 'unified-billing/testing';
 *
 * const backend = createReferenceBackend({
 *   users: [{ token: 't', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 10 }],
 * });
 * const clock = createTestClock();
 * const client = createClient({
 *   baseUrl: 'http://billing.test',
 *   appKey: 'poster',
 *   headers: { Authorization: 'Bearer t' },
 *   fetch: backend.fetch,
 *   scheduler: clock,
 * });
 * await client.billing.consume(); // the free use: a 30 s free period starts
 * clock.advance(30_000); // ...and is over
 * await client.billing.consume(); // 10 credits
 * clock.advance(30_000);
 * await client.billing.consume().catch((error) => isBillingError(error, 'insufficient_credits')); // true
 * ```
 */
export function createTestClock(options: TestClockOptions = {}): TestClock {
  const start = options.start ?? 0;
  const wall = options.wall ?? Date.now();
  let time = start;
  let seq = 0;
  let timers: Timer[] = [];
  // The timer that runs first among those due by `by`: the earliest, then the first armed.
  const first = (by: number): Timer | undefined => {
    let next: Timer | undefined;
    for (const timer of timers) {
      if (timer.due <= by && (!next || timer.due < next.due || (timer.due === next.due && timer.seq < next.seq)))
        next = timer;
    }
    return next;
  };

  const clock: TestClock = {
    now: () => time,
    wallNow: () => wall + (time - start),
    pending: () => timers.length,
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      let timer: Timer | undefined;
      const disarm = () => {
        timers = timers.filter((t) => t !== timer);
        timer = undefined;
      };
      const action = new Subscription(disarm) as SchedulerAction<T>;
      const run = () => {
        timer = undefined;
        work.call(action, state);
        // Done unless the work armed itself again (a periodic timer does).
        if (timer === undefined) action.unsubscribe();
      };
      action.schedule = (next?: T, after = 0) => {
        if (action.closed) return action;
        disarm();
        state = next;
        timers.push((timer = { due: time + Math.max(0, after), seq: ++seq, run, action }));
        return action;
      };
      return action.schedule(state, delay);
    },
    advance(ms: number) {
      if (!(ms >= 0)) throw new RangeError(`advance(ms) takes a number of ms >= 0, got ${String(ms)}`);
      const target = time + ms;
      for (let next = first(target); next; next = first(target)) {
        const due = next;
        timers = timers.filter((t) => t !== due);
        time = due.due;
        due.run();
      }
      time = target;
    },
    async settle<T>(promise: PromiseLike<T>, settleOptions: SettleOptions = {}): Promise<T> {
      const { maxMs = 300_000 } = settleOptions;
      if (!(maxMs >= 0)) throw new RangeError(`settle maxMs takes a number of ms >= 0, got ${String(maxMs)}`);
      let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
      Promise.resolve(promise).then(
        (value) => (outcome = { ok: true, value }),
        (error: unknown) => (outcome = { ok: false, error }),
      );
      const from = time;
      for (;;) {
        await realTurn();
        if (outcome) break;
        const next = first(Infinity);
        if (!next || next.due > from + maxMs) {
          throw new Error(
            `clock.settle: the promise is still pending after ${time - from} ms of clock time, and ` +
              (next
                ? `the next timer is due at ${next.due - from} ms, past maxMs ${maxMs}`
                : 'no timer is armed on the clock: it waits on something else (a stall fault, a delay, a server)'),
          );
        }
        clock.advance(next.due - time);
      }
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    },
  };
  return clock;
}
