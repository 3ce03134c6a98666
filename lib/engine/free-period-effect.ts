import { Observable, type Subscription } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { inBackground } from '../scheduler';
import type { Effect } from './effect';

/**
 * Arms one timer on the injected scheduler per free period and reports its
 * end; no timer exists while no free period is active.
 */
export const freePeriodEffect: Effect = (_action$, state$, { scheduler }) =>
  new Observable<BillingAction>((out) => {
    let armedFor: number | null = null;
    let timer: Subscription | null = null;
    const subscription = state$.subscribe((state) => {
      const end = state.freePeriodEnd;
      if (end === armedFor) return;
      armedFor = end;
      timer?.unsubscribe();
      // Nobody awaits this timer: in Node it must not keep the process alive.
      timer =
        end === null
          ? null
          : inBackground(scheduler).schedule(
              () => out.next({ type: 'freePeriod/ended', end }),
              Math.max(0, end - scheduler.now()),
            );
    });
    return () => {
      subscription.unsubscribe();
      timer?.unsubscribe();
    };
  });
