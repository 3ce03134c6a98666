import { asyncScheduler, type SchedulerLike } from 'rxjs';

/**
 * The default `scheduler`: RxJS's `asyncScheduler` for timers, with a
 * monotonic clock (`performance.now()`), so moving the wall clock neither
 * stretches nor cuts a free period.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl, appKey: 'poster', scheduler: monotonicScheduler });
 * ```
 */
export const monotonicScheduler: SchedulerLike = {
  now: () => performance.now(),
  schedule: asyncScheduler.schedule.bind(asyncScheduler) as SchedulerLike['schedule'],
};
