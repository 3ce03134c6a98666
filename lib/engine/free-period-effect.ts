import { EMPTY, distinctUntilChanged, map, switchMap, timer } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import { inBackground } from '../scheduler';

/**
 * Arms one timer on the injected scheduler per free period and reports its
 * end; no timer exists while no free period is active.
 */
export function freePeriodEffect(
  state$: Observable<BillingState>,
  scheduler: SchedulerLike,
): Observable<BillingAction> {
  return state$.pipe(
    map((state) => state.freePeriodEnd),
    distinctUntilChanged(),
    switchMap((end) =>
      end === null
        ? EMPTY
        : // Nobody awaits this timer: in Node it must not keep the process alive.
          timer(Math.max(0, end - scheduler.now()), inBackground(scheduler)).pipe(
            map((): BillingAction => ({ type: 'freePeriod/ended', end })),
          ),
    ),
  );
}
