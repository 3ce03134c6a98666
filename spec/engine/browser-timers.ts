import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';

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
export class BrowserTimers implements SchedulerLike {
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
