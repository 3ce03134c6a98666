import { realTimeout, realTurn } from './real-timers';

/**
 * Options of `clock.settle` (see `TestClock`).
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

/** What `settleOn` moves: the test clock's time, its `advance`, and when its next armed timer is due. */
export interface SettledClock {
  now(): number;
  advance(ms: number): void;
  /** When the next armed timer is due, `undefined` when none is armed. */
  nextDue(): number | undefined;
}

// Real ms the clock waits, before it moves to a timer not yet due, for real timers to fire: a mock's
// `setTimeout(…, 10)` armed before this wait began fires first, as real timers run in the order due.
const REAL_WAIT_MS = 20;

/** `clock.settle(promise)` on `clock`: the rule is in the TSDoc of `TestClock.settle`. */
export async function settleOn<T>(
  clock: SettledClock,
  promise: PromiseLike<T>,
  options: SettleOptions = {},
): Promise<T> {
  const { maxMs = 300_000 } = options;
  if (!(maxMs >= 0)) throw new RangeError(`settle maxMs takes a number of ms >= 0, got ${String(maxMs)}`);
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  // Ends the real wait early once the promise has settled.
  let wake = () => {};
  Promise.resolve(promise).then(
    (value) => {
      outcome = { ok: true, value };
      wake();
    },
    (error: unknown) => {
      outcome = { ok: false, error };
      wake();
    },
  );
  const from = clock.now();
  for (;;) {
    await realTurn();
    let next = clock.nextDue();
    if (!outcome && (next === undefined || next > clock.now())) {
      // Nothing due on the clock: real timers (a mock's answer) get their time before the clock moves.
      await new Promise<void>((resolve) => {
        const cancel = realTimeout(resolve, REAL_WAIT_MS);
        wake = () => {
          cancel();
          resolve();
        };
      });
      next = clock.nextDue();
    }
    if (outcome) break;
    if (next === undefined || next > from + maxMs) {
      throw new Error(
        `clock.settle: the promise is still pending after ${clock.now() - from} ms of clock time, and ` +
          (next !== undefined
            ? `the next timer is due at ${next - from} ms, past maxMs ${maxMs}`
            : `no timer is armed on the clock, nor did it settle in ${REAL_WAIT_MS} ms of real time: it waits ` +
              'on something else (a stall fault, a long delay, a server)'),
      );
    }
    clock.advance(next - clock.now());
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
