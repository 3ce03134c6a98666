import { BehaviorSubject, Subject, type SchedulerLike, type Subscription } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { reduce } from '../core/reducer';
import { initialState, type BillingState } from '../core/state';
import { inBackground } from '../shared/scheduler';

/** Sees each applied fact with the states around it, synchronously, before any effect (`StoreHooks.observe`). */
export type Observer = (action: BillingAction, before: BillingState, after: BillingState) => void;

/**
 * The store core, as Zustand's `createStoreImpl` is to what is built on it:
 * the state (a `BehaviorSubject` changed only by dispatching facts through
 * the pure reducer), the observers told of each fact (an absent one, a
 * feature not installed, is skipped), the `action$` effects read, and the
 * one timer that ends the free period. It knows nothing of
 * billing calls: the billing module (`create-store.ts`) is built on it.
 */
export function createStoreCore(scheduler: SchedulerLike, observers: ReadonlyArray<Observer | undefined>) {
  const state$ = new BehaviorSubject<BillingState>(initialState);
  const action$ = new Subject<BillingAction>();
  let stopped = false;
  // The one timer that ends the free period, aimed at the end the state holds: none while no period runs,
  // and in Node it never keeps the process alive. Features read the end from the state; they arm none. Its
  // delay is positive: the reducer sets only an end after the fact's `now`, the clock of this very dispatch.
  let periodTimer: Subscription | undefined;
  const aim = (end: number | null) => {
    periodTimer?.unsubscribe();
    periodTimer = end === null ? undefined : inBackground(scheduler).schedule(() => fired(end), end - scheduler.now());
  };
  // The period ends if the state still holds the end aimed at; a later one (a charge in a row) is aimed at.
  const fired = (end: number) => {
    const current = state$.value.freePeriodEnd;
    if (current === end) dispatch({ type: 'freePeriod/ended', end });
    else aim(current);
  };

  /** Applies a fact: the reducer, then the observers (the views, events), then the effects watching action$. */
  const dispatch = (action: BillingAction): void => {
    if (stopped) return;
    const before = state$.value;
    const after = reduce(before, action);
    if (after !== before) {
      const end = after.freePeriodEnd;
      const was = before.freePeriodEnd;
      // A later end keeps the timer (armed whenever an end is held): it aims again when it fires.
      if (end === null || was === null ? end !== was : end < was) aim(end);
      state$.next(after);
    }
    for (const observe of observers) observe?.(action, before, after);
    // Only the features' effects read action$: a free consume with none costs no delivery.
    if (action$.observed) action$.next(action);
  };

  return {
    state$,
    action$,
    dispatch,
    /** Applies nothing more from now on, and its timer goes. */
    stop() {
      stopped = true;
      periodTimer?.unsubscribe();
    },
  };
}
