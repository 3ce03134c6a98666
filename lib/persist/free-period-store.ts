import { concat, defer, distinctUntilChanged, ignoreElements, map, of, tap, EMPTY } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { Effect } from '../engine/effect';
import type { SafeStorage } from './safe-storage';

/**
 * Keeps the free period's end in storage as wall-clock milliseconds (the
 * monotonic clock restarts with each page), and restores it at start as the
 * milliseconds left, which the reducer clamps to 0..30 s.
 */
export function freePeriodStore(storage: SafeStorage, key: string, wallNow: () => number): Effect {
  return (_action$, state$, { scheduler }) => {
    const restore$ = defer(() => {
      const stored = Number(storage.get(key));
      if (!Number.isFinite(stored) || stored <= 0) return EMPTY;
      const action: BillingAction = {
        type: 'freePeriod/adopted',
        now: scheduler.now(),
        remainingMs: stored - wallNow(),
      };
      return of(action);
    });
    const save$ = state$.pipe(
      map((state) => state.freePeriodEnd),
      distinctUntilChanged(),
      tap((end) => {
        if (end === null) storage.remove(key);
        else storage.set(key, String(Math.round(wallNow() + (end - scheduler.now()))));
      }),
      ignoreElements(),
    );
    // Restored first, so the save that follows writes the restored period back rather than erasing it.
    return concat(restore$, save$);
  };
}
