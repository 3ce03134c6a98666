import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { cleanup, fixture } from '../helpers/client-fixture';

interface Armed {
  readonly at: number;
  readonly action: Subscription;
  readonly run: () => void;
}

/**
 * Virtual time with timers that fire as a browser's do: a fractional delay is
 * truncated to whole milliseconds (so a timer aimed just after a boundary may
 * fire just before it), and each firing comes `lateMs` late (so a repeating
 * timer drifts). `now()` is fractional, like `performance.now()`.
 */
class BrowserTimers implements SchedulerLike {
  private armed: Armed[] = [];

  constructor(
    private time: number,
    private readonly lateMs = 0.4,
  ) {}

  now(): number {
    return this.time;
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    const action = new Subscription() as SchedulerAction<T>;
    const arm = (value: T | undefined, ms: number) => {
      const entry: Armed = {
        at: this.time + Math.trunc(ms) + this.lateMs,
        action,
        run: () => work.call(action, value),
      };
      this.armed.push(entry);
      action.add(() => (this.armed = this.armed.filter((other) => other !== entry)));
    };
    action.schedule = (value?: T, ms = 0) => {
      arm(value, ms);
      return action;
    };
    arm(state, delay);
    return action;
  }

  /** Fires every timer due up to `now() + ms`, in time order, then sets the clock there. */
  advanceBy(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = this.armed.filter((entry) => entry.at <= target).sort((a, b) => a.at - b.at)[0];
      if (next === undefined) break;
      this.armed = this.armed.filter((entry) => entry !== next);
      this.time = next.at;
      next.run();
    }
    this.time = target;
  }
}

afterEach(cleanup);

const gaps = (values: readonly number[]) => values.slice(1).map((value, i) => values[i]! - value);

describe('freePeriodRemaining$ emits once a second, never skipping a value', () => {
  it.each([
    ['from the charge', 1_000_000.6, 0],
    ['for a subscriber that starts mid-period', 1_000_000.6, 1_400.5],
    ['for a subscriber that starts just after a boundary', 1_000_000.25, 2_000.1],
    ['on a clock with an integer origin and a late subscriber', 1_000_000, 12_999.9],
  ])('%s, under timers that truncate fractional delays and fire late', async (_label, start, joinAfter) => {
    const clock = new BrowserTimers(start);
    const { client } = fixture({}, { scheduler: clock });
    await client.billing.consume();
    clock.advanceBy(joinAfter);
    const seen: Array<[number, number]> = [];
    client.billing.freePeriodRemaining$.subscribe((value) => seen.push([clock.now(), value]));
    clock.advanceBy(31_000);
    const values = seen.map(([, value]) => value);
    expect(values[0]).toBe(Math.ceil((30_000 - joinAfter) / 1000));
    expect(values.at(-1)).toBe(0);
    expect(gaps(values)).toEqual(values.slice(1).map(() => 1));
    // Each value is shown while it is true: n seconds left means more than n - 1 remain.
    const end = start + 30_000;
    for (const [at, value] of seen) expect([at, Math.max(0, Math.ceil((end - at) / 1000))]).toEqual([at, value]);
  });
});
