import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { settleOn, type SettleOptions } from './settle';

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
   * timeout, a free period: whatever the call waits for on this clock.
   *
   * The rule: before it moves the clock to a timer that is not yet due, it
   * waits up to 20 ms of real time (less when the promise settles first), so
   * a hand-written `fetch` mock that answers after a real `setTimeout` of 0 to
   * 10 ms answers before the client's timeout, armed on the clock, runs. A
   * timer already due runs at once. It rejects with an `Error` instead of
   * hanging when nothing armed on the clock is left to run after that wait,
   * or when the next timer is due more than `maxMs` after the start: a promise
   * that never settles rejects in at most 20 ms of real time per timer it runs.
   * Under Jest's or Vitest's fake timers, it turns and waits on the real event
   * loop. A real server or a `delay` fault slower than that wait is time the
   * clock does not see: the client's timeout may run before the answer.
   *
   * @example
   * ```ts
   * // A mock that answers after a real timer: settle gives it the time.
   * const fetch = (): Promise<Response> =>
   *   new Promise((resolve) => setTimeout(() => resolve(new Response(body)), 10));
   * const result = await clock.settle(client.billing.consume());
   * ```
   */
  settle<T>(promise: PromiseLike<T>, options?: SettleOptions): Promise<T>;
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
    settle: <T>(promise: PromiseLike<T>, settleOptions?: SettleOptions) =>
      settleOn<T>(
        { now: () => time, advance: (ms) => clock.advance(ms), nextDue: () => first(Infinity)?.due },
        promise,
        settleOptions,
      ),
  };
  return clock;
}
