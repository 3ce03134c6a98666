import { BehaviorSubject, Observable, Subject, Subscription, type SchedulerLike } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { decide } from '../core/decide';
import { preview, type BillingPreview } from '../core/preview';
import { reduce } from '../core/reducer';
import { initialState, type BillingState } from '../core/state';
import { toUsageInfo } from '../core/usage-view';
import { BillingError } from '../errors';
import type { BillingEvent } from '../events/billing-event';
import { eventsOf } from '../events/event-of';
import { createEventHub } from '../events/event-hub';
import type { RecoveredConsume } from '../feature-types';
import { restoreAction, type BillingSnapshot } from '../snapshot';
import type { BillingStatus } from '../status/billing-status';
import type { BillingApi } from '../transport/billing-api';
import type { BillingCheckResult, BillingConsumeResult, ConsumeOptions, GetUsageOptions, UsageInfo } from '../types';
import { signalOf } from './call-options';
import { ConsumeCall, runConsume, unchargedResult } from './consume-effect';
import type { EffectDeps } from './effect';
import type { Exclusive, FeatureParts, Recovery } from './feature';
import { freePeriodEffect } from './free-period-effect';
import { journalRecord } from './journal-record';
import { Flight, fetchBalance, fetchUsage } from './loads';
import { validateExternalId } from './validate-external-id';
import { UsageView, freePeriodRemainingView, statusView } from './views';

/** What the engine is built from: the transport, the clocks, an id maker, the features' parts and the options it reads. */
export interface EngineSetup {
  readonly api: BillingApi;
  readonly scheduler: SchedulerLike;
  readonly wallNow: () => number;
  readonly newId: () => string;
  readonly features: readonly FeatureParts[];
  readonly scope: string;
  readonly onEvent?: ((event: BillingEvent) => void) | undefined;
  readonly bootstrap?: BillingSnapshot | null | undefined;
}

type Settled = Extract<BillingAction, { type: 'consume/settled' }>;
const disposedError = () => new BillingError('disposed', 'This billing client has been disposed');
const UNSENT = {
  type: 'consume/settled',
  externalId: null,
  result: null,
  error: null,
  charged: false,
  open: false,
} as const;

/**
 * One client's store and its operations: the state is a `BehaviorSubject`
 * changed only by dispatching facts through the pure reducer; the status,
 * the events and the views are read from it. A consume is `runConsume`, a
 * usage fetch `fetchUsage`; the features' effects turn facts into facts.
 */
export class Engine {
  readonly state$ = new BehaviorSubject<BillingState>(initialState);
  private readonly action$ = new Subject<BillingAction>();
  private readonly hub;
  private readonly teardown = new Subscription();
  // Consumes whose caller is still waiting, so dispose settles each one.
  private readonly live = new Set<ConsumeCall>();
  private readonly view: UsageView;
  private readonly forget: (externalId: string | undefined) => void;
  private readonly recovery: Recovery | undefined;
  private seq = 0;
  private queued = 0;
  private disposed = false;
  // A free-period answer kept while the free count it shows holds, so a burst allocates nothing.
  private free: {
    readonly result: BillingConsumeResult;
    readonly promise: Promise<BillingConsumeResult>;
    readonly action: Settled;
  } | null = null;
  /** Where the next consume waits for its turn. */
  tail: Promise<void> = Promise.resolve();
  readonly api: BillingApi;
  readonly newId: () => string;
  readonly exclusive: Exclusive | undefined;
  readonly journal: ((externalId: string) => void) | undefined;
  readonly usage = new Flight<void>((controller) => fetchUsage(this, controller));
  readonly balance = new Flight<number>((controller) => fetchBalance(this, controller));
  readonly usage$: Observable<UsageInfo>;
  readonly changes$: Observable<UsageInfo>;
  readonly status$: Observable<BillingStatus>;
  readonly events$: Observable<BillingEvent>;
  readonly freePeriodRemaining$: Observable<number>;
  readonly recovered$: Observable<RecoveredConsume>;

  constructor(private readonly setup: EngineSetup) {
    const { scheduler, features } = setup;
    this.api = setup.api;
    this.newId = setup.newId;
    const part = <K extends keyof FeatureParts>(key: K) => features.find((parts) => parts[key] !== undefined)?.[key];
    this.exclusive = part('exclusive');
    const record = journalRecord(part('journal'));
    this.journal = record.add;
    this.forget = record.forget;
    this.hub = createEventHub(setup.onEvent);
    this.events$ = this.hub.events$;
    const state$ = this.state$;
    this.view = new UsageView(state$, scheduler);
    this.usage$ = this.view.usage$;
    this.changes$ = this.view.changes.asObservable();
    this.status$ = statusView(state$);
    this.freePeriodRemaining$ = freePeriodRemainingView(state$, scheduler);
    if (setup.bootstrap) this.dispatch(restoreAction(setup.bootstrap, this.now(), setup.wallNow()));
    const deps: EffectDeps = {
      scheduler,
      refetchUsage: () => void this.usage.join(undefined, true).catch(() => undefined),
    };
    for (const effect of [freePeriodEffect, ...features.flatMap((parts) => parts.effects ?? [])]) {
      this.teardown.add(effect(this.action$, state$, deps).subscribe((action) => this.dispatch(action)));
    }
    // Without reload safety nothing is left to replay: recovered$ completes at once.
    this.recovery = part('recovery');
    this.recovered$ = this.recovery?.recovered$ ?? new Observable((subscriber) => subscriber.complete());
    this.teardown.add(this.recovery?.start((externalId) => this.submit(externalId, undefined, true)));
  }

  get state(): BillingState {
    return this.state$.value;
  }

  now(): number {
    return this.setup.scheduler.now();
  }

  /** Numbers a request attempt as it goes out (a retry is newer than what was sent before it). */
  stamp(sent: { seq: number }): void {
    sent.seq = ++this.seq;
  }

  /** Applies a fact: the reducer, then the views, the events, and the effects watching action$ (DevTools is one). */
  dispatch(action: BillingAction): void {
    if (this.disposed) return;
    const before = this.state;
    const after = reduce(before, action);
    if (after !== before) {
      this.state$.next(after);
      this.view.update(after, this.now());
    }
    // Built only while someone listens.
    if (this.hub.active()) for (const event of eventsOf(action, before, after, this.now())) this.hub.emit(event);
    // Only the features' effects read action$: a free consume with none costs no delivery.
    if (this.action$.observed) this.action$.next(action);
  }

  assertLive(): void {
    if (this.disposed) throw disposedError();
  }

  cached(): UsageInfo | null {
    this.assertLive();
    return toUsageInfo(this.state, this.now());
  }

  check(): BillingCheckResult {
    this.assertLive();
    return decide(this.state, this.now());
  }

  preview(): BillingPreview {
    this.assertLive();
    return preview(this.state, this.now());
  }

  status(): BillingStatus {
    this.assertLive();
    return this.state.status;
  }

  /** Emits a `request:retry` event (the transport's hook), built only while someone listens. */
  retried(attempt: number, delayMs: number, path: string): void {
    if (this.hub.active()) this.hub.emit({ type: 'request:retry', at: this.now(), attempt, delayMs, path });
  }

  /** Runs `teardown` on dispose, with the effects (a feature armed outside them). */
  onDispose(teardown: () => void): void {
    this.teardown.add(teardown);
  }

  async getUsage(options?: GetUsageOptions | null): Promise<UsageInfo> {
    if (this.disposed) throw disposedError();
    const signal = signalOf(options, 'getUsage');
    if (signal instanceof BillingError) throw signal;
    await this.usage.join(signal);
    // The cache after applying, so an answer older than what it holds loses.
    return toUsageInfo(this.state, this.now()) as UsageInfo;
  }

  getBalance(): Promise<number> {
    return this.disposed ? Promise.reject(disposedError()) : this.balance.join();
  }

  consume(options?: ConsumeOptions | null): Promise<BillingConsumeResult> {
    if (this.disposed) return Promise.reject(disposedError());
    const signal = signalOf(options, 'consume');
    const externalId = options?.externalId;
    const invalid = signal instanceof BillingError ? signal : validateExternalId(externalId);
    if (invalid !== null) {
      // Refused before anything was sent, and still told as a failed consume.
      this.dispatch({ ...UNSENT, error: invalid });
      return Promise.reject(invalid);
    }
    return this.take(externalId, signal as AbortSignal | undefined);
  }

  private take(externalId: string | undefined, signal: AbortSignal | undefined): Promise<BillingConsumeResult> {
    // A free period with nothing queued: answered at once, no request, no id, nothing built.
    if (this.queued === 0 && signal?.aborted !== true && this.check().reason === 'free_period') {
      const freeRemaining = this.state.quota?.freeRemaining ?? 0;
      if (this.free?.result.freeRemaining !== freeRemaining) {
        const result = Object.freeze(unchargedResult(this.state));
        this.free = { result, promise: Promise.resolve(result), action: { ...UNSENT, result } };
      }
      this.dispatch(externalId === undefined ? this.free.action : { ...this.free.action, externalId });
      return this.free.promise;
    }
    return this.submit(externalId, signal, false);
  }

  private submit(externalId: string | undefined, signal: AbortSignal | undefined, replay: boolean) {
    const call = new ConsumeCall(externalId, replay, (settled, result, error) => {
      this.live.delete(settled);
      this.queued--;
      signal?.removeEventListener('abort', abort);
      this.dispatch({
        type: 'consume/settled',
        externalId: settled.externalId ?? null,
        result,
        error,
        charged: settled.charged,
        open: settled.open,
      });
      // The caller has the outcome (or was told the client is gone): nothing is left to replay.
      this.forget(settled.externalId);
    });
    // Until the backend has answered, an abort fails the call; after, the answer stands.
    const abort = () => call.stop(new BillingError('aborted', 'consume() was aborted'));
    this.queued++;
    this.live.add(call);
    if (signal?.aborted) abort();
    else {
      signal?.addEventListener('abort', abort);
      void runConsume(this, call);
    }
    return call.promise;
  }

  dispose(): void {
    if (this.disposed) return;
    // Pending calls settle first (an answered consume with its answer) and clear the journal,
    // synchronously; then the effects, the requests and the timers go.
    for (const call of [...this.live]) call.stop(disposedError());
    this.disposed = true;
    this.usage.stop(disposedError());
    this.balance.stop(disposedError());
    this.teardown.unsubscribe();
    this.recovery?.stop();
    this.hub.complete();
    this.view.changes.complete();
    this.state$.complete();
    this.action$.complete();
  }
}
