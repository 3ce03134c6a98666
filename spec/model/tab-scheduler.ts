import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';
import type { VirtualClock } from '../helpers/virtual-clock';

/**
 * One tab's view of the shared virtual clock. Every tab reads the same `now()`
 * (one timeline) and the same wall clock (`wallNow()`, which the model steps), but a busy tab runs its
 * timers only once it is free again (a blocked main thread, a frozen
 * background tab), and a dead tab (a page that went away) never runs them.
 */
export class TabScheduler implements SchedulerLike {
  private busy = false;
  private dead = false;
  private deferred: Array<() => void> = [];

  constructor(
    private readonly clock: VirtualClock,
    private readonly wall: () => number = () => clock.now(),
    // Where this page's monotonic clock starts on the shared timeline (0 in the model).
    private readonly origin = 0,
  ) {}

  now(): number {
    return this.clock.now() - this.origin;
  }

  /** The wall clock pages share (`Date.now`), which may step while `now()` runs on. */
  wallNow(): number {
    return this.wall();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    // `this` of the wrapper is the clock's action, so a rescheduling timer keeps going through it.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const tab = this;
    return this.clock.schedule(
      function (this: SchedulerAction<T>, s?: T) {
        if (tab.dead) return;
        if (!tab.busy) return work.call(this, s);
        // eslint-disable-next-line @typescript-eslint/no-this-alias
        const action = this;
        tab.deferred.push(() => {
          if (!action.closed) work.call(action, s);
        });
      },
      delay,
      state,
    );
  }

  get isBusy(): boolean {
    return this.busy;
  }

  get isDead(): boolean {
    return this.dead;
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    if (busy || this.dead) return;
    // The late timers run now, at the time the tab gets to them.
    const late = this.deferred;
    this.deferred = [];
    late.forEach((run) => run());
  }

  kill(): void {
    this.dead = true;
    this.deferred = [];
  }
}
