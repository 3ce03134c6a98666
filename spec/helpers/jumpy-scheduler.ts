import type { SchedulerLike } from 'rxjs';
import { VirtualClock } from './virtual-clock';

/**
 * A scheduler like a wall clock: `now()` can be moved by hand (NTP, a user
 * changing the time) while its timers keep counting elapsed time, on a
 * virtual clock the test advances.
 */
export class JumpyScheduler implements SchedulerLike {
  readonly clock = new VirtualClock();
  private offset = 0;

  now(): number {
    return this.clock.now() + this.offset;
  }

  /** Moves `now()` by `ms` (negative: back) without touching armed timers. */
  jump(ms: number): void {
    this.offset += ms;
  }

  /** Elapsed timer time: runs the timers due within `ms`. */
  elapse(ms: number): void {
    this.clock.advanceBy(ms);
  }

  readonly schedule: SchedulerLike['schedule'] = this.clock.schedule.bind(this.clock) as SchedulerLike['schedule'];
}
