import type { SchedulerLike, Subscription } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { inBackground } from '../shared/scheduler';

/**
 * The one timer that ends the free period: `arm(end)` as the store's
 * `freePeriodEnd` changes, `stop()` on dispose. No timer exists while no free
 * period is active, and in Node it never keeps the process alive. A charge
 * that moves the end later keeps the timer armed: when it fires, it aims again
 * at the end the store then holds (`currentEnd`).
 */
export function freePeriodTimer(
  scheduler: SchedulerLike,
  currentEnd: () => number | null,
  dispatch: (action: BillingAction) => void,
): { arm(end: number | null): void; stop(): void } {
  let timer: Subscription | undefined;
  let armed = 0;
  const stop = () => {
    timer?.unsubscribe();
    timer = undefined;
  };
  const arm = (end: number | null) => {
    if (end !== null && timer && end >= armed) return;
    stop();
    if (end === null) return;
    armed = end;
    timer = inBackground(scheduler).schedule(
      () => {
        timer = undefined;
        if (currentEnd() === end) dispatch({ type: 'freePeriod/ended', end });
        else arm(currentEnd());
      },
      Math.max(0, end - scheduler.now()),
    );
  };
  return { arm, stop };
}
