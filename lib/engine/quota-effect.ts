import { Observable, Subscription } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { FreeCount } from '../transport/decode';
import type { BillingApi } from '../transport/billing-api';
import { BillingError } from '../errors';
import type { Effect, EffectDeps } from './effect';
import { fromCall } from './from-call';
import type { Monitor } from './monitor';
import type { LoadRequest } from './requests';
import { SharedFlights, type FlightEnd } from './shared-flight';

/** What the quota effect needs besides the clock. */
export interface QuotaDeps extends EffectDeps {
  readonly api: BillingApi;
  readonly loads$: Observable<LoadRequest>;
  /** Numbers each attempt as it goes out: a retry is newer than what was sent before it. */
  readonly nextSeq: () => number;
  readonly monitor: Monitor;
}

const REFRESH_OK = Object.freeze({ kind: 'refresh', error: null } as const);

// An attempt's number and send time, taken as it goes out.
function stamp(deps: QuotaDeps) {
  const sent = { seq: 0, at: 0 };
  const onSend = () => {
    sent.seq = deps.nextSeq();
    sent.at = deps.scheduler.now();
  };
  return { sent, onSend };
}

// Both GETs in parallel; one `usage/loaded` once both are in, or the first error (the other is cancelled).
function loadUsage(deps: QuotaDeps, emit: (action: BillingAction) => void, end: FlightEnd<void>): Subscription {
  const { monitor } = deps;
  const free = stamp(deps);
  const balance = stamp(deps);
  let count: FreeCount | undefined;
  let credits: number | undefined;
  const done = () => {
    if (count === undefined || credits === undefined) return;
    settled = true;
    const at = deps.scheduler.now();
    const quota = { ...count, creditsBalance: credits };
    monitor.usageAnswered(at, () =>
      emit({
        type: 'usage/loaded',
        seq: free.sent.seq,
        balanceSeq: balance.sent.seq,
        quota,
        sentAt: free.sent.at,
        balanceSentAt: balance.sent.at,
      }),
    );
    if (monitor.listening) monitor.emit({ type: 'usage:loaded', at });
    end.value();
  };
  let settled = false;
  monitor.note({ kind: 'usage/started' });
  // A fetch all of whose callers left ends too, for the status's count of fetches in flight.
  const subscription = new Subscription(() => {
    if (!settled) monitor.note({ kind: 'usage', error: new BillingError('aborted', 'The call was aborted') });
  });
  const fail = (error: unknown) => {
    settled = true;
    subscription.unsubscribe();
    monitor.note({ kind: 'usage', error: error as BillingError });
    end.error(error);
  };
  subscription.add(
    fromCall((options) => deps.api.freeCount(options), free.onSend).subscribe({
      next: (value) => ((count = value), done()),
      error: fail,
    }),
  );
  // Not sent when the first already failed at once (headers refused before sending).
  if (!subscription.closed) {
    subscription.add(
      fromCall((options) => deps.api.balance(options), balance.onSend).subscribe({
        next: (value) => ((credits = value), done()),
        error: fail,
      }),
    );
  }
  return subscription;
}

function loadBalance(deps: QuotaDeps, emit: (action: BillingAction) => void, end: FlightEnd<number>): Subscription {
  const { sent, onSend } = stamp(deps);
  const { monitor } = deps;
  return fromCall((options) => deps.api.balance(options), onSend).subscribe({
    next: (balance) => {
      emit({ type: 'balance/loaded', seq: sent.seq, balance, sentAt: sent.at });
      monitor.note(REFRESH_OK);
      end.value(balance);
    },
    error: (error: unknown) => {
      monitor.note({ kind: 'refresh', error: error as BillingError });
      if (monitor.listening)
        monitor.emit({ type: 'refresh:failed', at: deps.scheduler.now(), error: error as BillingError });
      end.error(error);
    },
  });
}

/**
 * The GET side: usage and balance loads, shared while in flight. Each answer
 * becomes a fact first, then the replies settle, so a caller reads the cache
 * with the answer applied (or a newer one that beat it).
 */
export const quotaEffect: Effect<QuotaDeps> = (_action$, _state$, deps) =>
  new Observable<BillingAction>((out) => {
    const emit = (action: BillingAction) => out.next(action);
    const usage = new SharedFlights<void>((end) => loadUsage(deps, emit, end));
    const balance = new SharedFlights<number>((end) => loadBalance(deps, emit, end));
    const subscription = deps.loads$.subscribe((request) => {
      if (request.reply.settled) return;
      if (request.kind === 'usage') usage.join(request.reply, request.fresh);
      else balance.join(request.reply, request.fresh);
    });
    return () => {
      subscription.unsubscribe();
      usage.stop();
      balance.stop();
    };
  });
