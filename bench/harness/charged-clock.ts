import { asyncScheduler, type SchedulerLike } from 'rxjs';

/**
 * The default scheduler's timers with a clock that `skipFreePeriod()` moves
 * past the free period, so the consume after it is a charged POST.
 */
export function chargedClock(): { scheduler: SchedulerLike; skipFreePeriod: () => void } {
  let skew = 0;
  return {
    scheduler: {
      now: () => performance.now() + skew,
      schedule: asyncScheduler.schedule.bind(asyncScheduler) as SchedulerLike['schedule'],
    },
    skipFreePeriod: () => {
      skew += 31_000;
    },
  };
}
