import { Observable, distinctUntilChanged, filter, map, of, skip, switchMap } from 'rxjs';
import type { SchedulerAction, SchedulerLike } from 'rxjs';
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
 * The whole seconds left until `end`, once a second. Each tick is aimed at the
 * next second boundary, in whole milliseconds rounded up: timers truncate a
 * fractional delay, and a tick that lands just before a boundary would repeat
 * a value and let the next one skip. A late tick shows the true value.
 */
function countdown(state: BillingState, scheduler: SchedulerLike): Observable<number> {
  return new Observable<number>((subscriber) => {
    const end = state.freePeriodEnd ?? 0;
    let shown = freePeriodSeconds(state, scheduler.now());
    subscriber.next(shown);
    if (shown === 0) return subscriber.complete();
    // At most a second: a clamped figure (a clock moved back) still counts down.
    const untilNext = () => Math.min(1000, Math.max(0, Math.ceil(end - (shown - 1) * 1000 - scheduler.now())));
    // A display ticker: in Node it must not keep the process alive.
    return inBackground(scheduler).schedule(function tick(this: SchedulerAction<unknown>) {
      shown = Math.min(shown - 1, freePeriodSeconds(state, scheduler.now()));
      subscriber.next(shown);
      if (shown > 0) this.schedule(undefined, untilNext());
      else subscriber.complete();
    }, untilNext());
  });
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
    switchMap((state) => (state.freePeriodEnd === null ? of(0) : countdown(state, scheduler))),
    distinctUntilChanged(),
  );
}
