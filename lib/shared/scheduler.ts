import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';

// A scheduler over setTimeout with a monotonic clock: all the client needs of
// RxJS's asyncScheduler, without its action and interval machinery in the bundle.
// `background` timers are unref'd in Node (browsers' timers are numbers and hold nothing).
// `performance.now()`, else `Date.now()` where there is no `performance` (a bare Hermes), read at each call.
const now = () => (globalThis.performance ?? Date).now();

function timeoutScheduler(background: boolean): SchedulerLike {
  return {
    now,
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
      let handle: ReturnType<typeof setTimeout> | undefined;
      const action = new Subscription(() => clearTimeout(handle)) as SchedulerAction<T>;
      const run = (): void => {
        handle = undefined;
        work.call(action, state);
        // Done unless the work rescheduled itself (a periodic timer does).
        if (handle === undefined) action.unsubscribe();
      };
      // setTimeout reads an undefined delay as 0.
      action.schedule = (next?: T, after?: number) => {
        if (action.closed) return action;
        clearTimeout(handle);
        state = next;
        handle = setTimeout(run, after);
        if (background) (handle as { unref?: () => void }).unref?.();
        return action;
      };
      return action.schedule(state, delay);
    },
  };
}

/**
 * The default `scheduler`: timers on `setTimeout`, with a monotonic clock
 * (`performance.now()`), so moving the wall clock neither stretches nor cuts
 * a free period. Where the runtime has no `performance`, `Date.now()`.
 *
 * In Node, the timers the client arms for itself (the end of a free period,
 * the `freePeriodRemaining$` countdown) do not keep the process alive, so a
 * script or a test run exits without `dispose()`. Timers that belong to a call
 * someone awaits (a request's timeout, a retry's backoff) still do.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl, appKey: 'poster', scheduler: monotonicScheduler });
 * ```
 */
export const monotonicScheduler: SchedulerLike = timeoutScheduler(false);

const backgroundTwin = timeoutScheduler(true);

/**
 * The scheduler for a timer the client arms for itself, which nobody awaits:
 * on the default scheduler its timers do not keep a Node process alive. An
 * injected scheduler (a virtual clock, a test scheduler) is used as given.
 */
export function inBackground(scheduler: SchedulerLike): SchedulerLike {
  return scheduler === monotonicScheduler ? backgroundTwin : scheduler;
}
