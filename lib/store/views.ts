import { Observable, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { freePeriodSeconds } from '../core/decide';
import type { BillingState } from '../core/state';
import { inBackground } from '../shared/scheduler';

/**
 * `freePeriodRemaining$`: the whole seconds left, emitted on each second
 * boundary of the period (not of the subscription), then 0 at its end. Each
 * tick is aimed at the next second boundary, in whole milliseconds rounded up:
 * timers truncate a fractional delay, and a tick that lands just before a
 * boundary would repeat a value and let the next one skip. A late tick shows
 * the true value.
 */
export function freePeriodRemainingView(
  state$: Observable<BillingState>,
  scheduler: SchedulerLike,
): Observable<number> {
  return new Observable<number>((subscriber) => {
    let end: number | null | undefined;
    let shown = -1;
    let ticking: Subscription | undefined;
    const show = (seconds: number) => seconds !== shown && subscriber.next((shown = seconds));
    subscriber.add(() => ticking?.unsubscribe());
    return state$.subscribe({
      next: (state) => {
        if (state.freePeriodEnd === end) return;
        const until = (end = state.freePeriodEnd) ?? 0;
        ticking?.unsubscribe();
        let left = freePeriodSeconds(state, scheduler.now());
        show(left);
        // At most a second: a clamped figure (a clock moved back) still counts down.
        const untilNext = () => Math.min(1000, Math.max(0, Math.ceil(until - (left - 1) * 1000 - scheduler.now())));
        // A display ticker: in Node it must not keep the process alive.
        ticking =
          left > 0
            ? inBackground(scheduler).schedule(function tick(this: SchedulerAction<unknown>) {
                show((left = Math.min(left - 1, freePeriodSeconds(state, scheduler.now()))));
                if (left > 0) this.schedule(undefined, untilNext());
              }, untilNext())
            : undefined;
      },
      // The store completes on dispose: the ticking timer goes with the teardown added above.
      complete: () => subscriber.complete(),
    });
  });
}
