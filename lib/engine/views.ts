import { distinctUntilChanged, filter, map, of, skip, startWith, switchMap, takeWhile, timer } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import { freePeriodSeconds } from '../core/decide';
import type { BillingState } from '../core/state';
import { sameUsage, toUsageInfo } from '../core/usage-view';
import { inBackground } from '../scheduler';
import type { UsageInfo } from '../types';

const isUsage = (usage: UsageInfo | null): usage is UsageInfo => usage !== null;

/** `usage$`: the current usage to each subscriber, then every change (contract 3.4). */
export function usageView(state$: Observable<BillingState>, scheduler: SchedulerLike): Observable<UsageInfo> {
  return state$.pipe(
    map((state) => toUsageInfo(state, scheduler.now())),
    filter(isUsage),
    distinctUntilChanged<UsageInfo>(sameUsage),
  );
}

/** What `onChange` delivers: like `usage$`, but never the value current at registration. */
export function usageChanges(state$: Observable<BillingState>, scheduler: SchedulerLike): Observable<UsageInfo> {
  return state$.pipe(
    map((state) => toUsageInfo(state, scheduler.now())),
    distinctUntilChanged(sameUsage),
    skip(1),
    filter(isUsage),
  );
}

/**
 * `freePeriodRemaining$`: the whole seconds left, emitted on each second
 * boundary of the period (not of the subscription), then 0 at its end.
 */
export function freePeriodRemainingView(
  state$: Observable<BillingState>,
  scheduler: SchedulerLike,
): Observable<number> {
  return state$.pipe(
    distinctUntilChanged((a, b) => a.freePeriodEnd === b.freePeriodEnd),
    switchMap((state) => {
      const end = state.freePeriodEnd;
      if (end === null) return of(0);
      const untilNextSecond = (end - scheduler.now()) % 1000 || 1000;
      // A display ticker: in Node it must not keep the process alive.
      return timer(untilNextSecond, 1000, inBackground(scheduler)).pipe(
        startWith(0),
        map(() => freePeriodSeconds(state, scheduler.now())),
        takeWhile((seconds) => seconds > 0, true),
      );
    }),
    distinctUntilChanged(),
  );
}
