import { BehaviorSubject, Subject, type SchedulerLike, type Subscription } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { reduce } from '../core/reducer';
import { initialState, type BillingState } from '../core/state';
import { toUsageInfo } from '../core/usage-view';
import type { BillingStatus } from '../shared/billing-status';
import { sameUsage } from '../shared/quota-keys';
import { inBackground } from '../shared/scheduler';
import type { UsageInfo } from '../shared/types';

/** Sees each applied fact with the states around it, synchronously, before any effect (`StoreHooks.observe`). */
type Observer = (action: BillingAction, before: BillingState, after: BillingState) => void;

/**
 * The store core, as Zustand's `createStoreImpl` is to its middlewares: the
 * state (a `BehaviorSubject` changed only by dispatching facts through the
 * pure reducer), the views read from it (status, usage changes), and the one
 * timer that ends the free period. It knows nothing of billing calls: the
 * billing module (`create-store.ts`) is built on it.
 */
export function createStoreCore(scheduler: SchedulerLike, observers: readonly Observer[]) {
  const state$ = new BehaviorSubject<BillingState>(initialState);
  const action$ = new Subject<BillingAction>();
  const changes = new Subject<UsageInfo>();
  // The reducer keeps the status the same object while nothing in it changed.
  const status$ = new BehaviorSubject<BillingStatus>(initialState.status);
  const now = () => scheduler.now();
  let stopped = false;
  let shown: UsageInfo | null = null;
  // The one timer that ends the free period, aimed at the end the state holds: none while no period runs,
  // and in Node it never keeps the process alive. Features read the end from the state; they arm none.
  let periodTimer: Subscription | undefined;

  /** Applies a fact: the reducer, then the views, the observers (events), and the effects watching action$. */
  const dispatch = (action: BillingAction): void => {
    if (stopped) return;
    const before = state$.value;
    const after = reduce(before, action);
    if (after !== before) {
      if (after.freePeriodEnd !== before.freePeriodEnd) {
        const end = after.freePeriodEnd;
        periodTimer?.unsubscribe();
        periodTimer =
          end === null
            ? undefined
            : inBackground(scheduler).schedule(
                () => dispatch({ type: 'freePeriod/ended', end }),
                Math.max(0, end - now()),
              );
      }
      state$.next(after);
      if (after.status !== before.status) status$.next(after.status);
      const usage = toUsageInfo(after, now());
      if (usage !== null && !sameUsage(usage, shown)) changes.next((shown = usage));
    }
    for (const observe of observers) observe(action, before, after);
    // Only the features' effects read action$: a free consume with none costs no delivery.
    if (action$.observed) action$.next(action);
  };

  return {
    state$,
    action$,
    status$,
    /** Each change of the usage shown (not on subscription). */
    changes,
    dispatch,
    now,
    state: () => state$.value,
    /** Applies nothing more from now on, and its timer goes. */
    stop() {
      stopped = true;
      periodTimer?.unsubscribe();
    },
    /** Completes the streams, last (the effects were cut before). */
    complete() {
      for (const stream of [changes, status$, state$, action$]) stream.complete();
    },
  };
}

/** What `createStoreCore` returns. */
export type StoreCore = ReturnType<typeof createStoreCore>;
