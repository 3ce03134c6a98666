import { Observable, Subject, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { freePeriodSeconds } from '../core/decide';
import type { BillingState } from '../core/state';
import { sameUsage, toUsageInfo } from '../core/usage-view';
import { inBackground } from '../scheduler';
import type { BillingStatus } from '../status/billing-status';
import type { UsageInfo } from '../types';
import type { StateSource } from './effect';

/**
 * `usage$` and `onChange`'s source. Each state change builds one `UsageInfo`,
 * shared by every subscriber; nothing is emitted when no shown field changed.
 */
export class UsageView {
  private current: UsageInfo | null = null;
  /** Every change, never the value current at subscription. */
  readonly changes = new Subject<UsageInfo>();
  /** The current usage to each subscriber (measured now), then every change (contract 3.4). */
  readonly usage$: Observable<UsageInfo>;

  constructor(state$: StateSource, scheduler: SchedulerLike) {
    this.usage$ = new Observable<UsageInfo>((subscriber) => {
      const now = this.changes.closed || this.changes.isStopped ? null : toUsageInfo(state$.value, scheduler.now());
      if (now !== null) subscriber.next(now);
      return this.changes.subscribe(subscriber);
    });
  }

  update(state: BillingState, now: number): void {
    const next = toUsageInfo(state, now);
    if (next === null || sameUsage(next, this.current)) return;
    this.current = next;
    this.changes.next(next);
  }
}

/**
 * The whole seconds left until `end`, once a second. Each tick is aimed at the
 * next second boundary, in whole milliseconds rounded up: timers truncate a
 * fractional delay, and a tick that lands just before a boundary would repeat
 * a value and let the next one skip. A late tick shows the true value.
 */
function countdown(
  state: BillingState,
  scheduler: SchedulerLike,
  show: (seconds: number) => void,
): Subscription | null {
  const end = state.freePeriodEnd ?? 0;
  let shown = freePeriodSeconds(state, scheduler.now());
  show(shown);
  if (shown === 0) return null;
  // At most a second: a clamped figure (a clock moved back) still counts down.
  const untilNext = () => Math.min(1000, Math.max(0, Math.ceil(end - (shown - 1) * 1000 - scheduler.now())));
  // A display ticker: in Node it must not keep the process alive.
  return inBackground(scheduler).schedule(function tick(this: SchedulerAction<unknown>) {
    shown = Math.min(shown - 1, freePeriodSeconds(state, scheduler.now()));
    show(shown);
    if (shown > 0) this.schedule(undefined, untilNext());
  }, untilNext());
}

/**
 * `freePeriodRemaining$`: the whole seconds left, emitted on each second
 * boundary of the period (not of the subscription), then 0 at its end.
 */
export function freePeriodRemainingView(
  state$: Observable<BillingState>,
  scheduler: SchedulerLike,
): Observable<number> {
  return new Observable<number>((subscriber) => {
    let end: number | null | undefined;
    let shown = -1;
    let ticking: Subscription | null = null;
    const show = (seconds: number) => {
      if (seconds === shown) return;
      shown = seconds;
      subscriber.next(seconds);
    };
    const subscription = state$.subscribe({
      next: (state) => {
        if (state.freePeriodEnd === end) return;
        end = state.freePeriodEnd;
        ticking?.unsubscribe();
        ticking = countdown(state, scheduler, show);
      },
      // The store completes on dispose: the ticking timer goes with it.
      complete: () => {
        ticking?.unsubscribe();
        subscriber.complete();
      },
    });
    return () => {
      subscription.unsubscribe();
      ticking?.unsubscribe();
    };
  });
}

/** `status$`: the store's status, replayed, then each change; completes with the store. */
export function statusView(state$: Observable<BillingState>): Observable<BillingStatus> {
  return new Observable<BillingStatus>((subscriber) => {
    let shown: BillingStatus | null = null;
    return state$.subscribe({
      next: ({ status }) => {
        if (status !== shown) subscriber.next((shown = status));
      },
      complete: () => subscriber.complete(),
    });
  });
}
