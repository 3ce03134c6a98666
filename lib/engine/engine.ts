import { Observable, Subject, Subscription, type SchedulerLike } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { decide } from '../core/decide';
import { preview, type BillingPreview } from '../core/preview';
import { toUsageInfo } from '../core/usage-view';
import { BillingError } from '../errors';
import type { RecoveredConsume } from '../feature-types';
import type { BillingApi } from '../transport/billing-api';
import type { BillingCheckResult, BillingConsumeResult, ConsumeOptions, GetUsageOptions, UsageInfo } from '../types';
import { signalOf } from './call-options';
import { consumeEffect } from './consume-effect';
import type { Effect } from './effect';
import type { FeatureParts, Recovery } from './feature';
import { freePeriodEffect } from './free-period-effect';
import { FreeReply } from './free-reply';
import type { Monitor } from './monitor';
import { quotaEffect } from './quota-effect';
import { journalRecord } from './journal-record';
import { Reply } from './reply';
import { ConsumeRequest, type LoadRequest } from './requests';
import { Store } from './store';
import { validateExternalId } from './validate-external-id';
import { UsageView, freePeriodRemainingView } from './views';

/** What the engine is built from: the transport, the clock, an id maker and the opt-in features' parts. */
export interface EngineSetup {
  readonly api: BillingApi;
  readonly scheduler: SchedulerLike;
  readonly newId: () => string;
  readonly features: readonly FeatureParts[];
  /** Status and events; made by the client, so the transport can report retries to it too. */
  readonly monitor: Monitor;
}

const disposedError = () => new BillingError('disposed', 'This billing client has been disposed');

/**
 * Wires the store, the fact stream, the two request streams and the effects,
 * and offers the operations the public facade exposes. One engine per client.
 */
export class Engine {
  private readonly store = new Store();
  private readonly action$ = new Subject<BillingAction>();
  private readonly consumes = new Subject<ConsumeRequest>();
  private readonly loads = new Subject<LoadRequest>();
  private readonly effects = new Subscription();
  // Every reply not yet settled, so dispose settles each one.
  private readonly live = new Set<Reply<unknown>>();
  private readonly view: UsageView;
  private readonly forget: (externalId: string | undefined) => void;
  private disposed = false;
  // Consumes not yet settled: a free period answers at once only when none is queued.
  private consuming = 0;
  private readonly freeReply = new FreeReply();
  readonly usage$: Observable<UsageInfo>;
  readonly changes$: Observable<UsageInfo>;
  readonly freePeriodRemaining$: Observable<number>;
  readonly recovered$: Observable<RecoveredConsume>;
  private readonly recovery: Recovery | undefined;

  constructor(private readonly setup: EngineSetup) {
    const { api, scheduler, features } = setup;
    const state$ = this.store.state$;
    this.view = new UsageView(state$, scheduler);
    this.usage$ = this.view.usage$;
    this.changes$ = this.view.changes.asObservable();
    this.freePeriodRemaining$ = freePeriodRemainingView(state$, scheduler);
    const { monitor } = setup;
    let previous = state$.value;
    state$.subscribe({
      next: (state) => {
        monitor.stateChanged(previous, state);
        previous = state;
        this.view.update(state, scheduler.now());
      },
      complete: () => this.view.changes.complete(),
    });
    const journal = features.find((parts) => parts.journal !== undefined)?.journal;
    const record = journalRecord(journal);
    this.forget = record.forget;
    let seq = 0;
    const deps = {
      api,
      scheduler,
      nextSeq: () => ++seq,
      newId: setup.newId,
      monitor,
      consumes$: this.consumes,
      loads$: this.loads,
      load: (request: LoadRequest) => this.loads.next(request),
      refetchUsage: () => void this.getUsage().catch(() => undefined),
      exclusive: features.find((parts) => parts.exclusive !== undefined)?.exclusive,
      journal: record.add,
    };
    // Every effect, the features' included, attached here: each one's facts go to the store, then to action$.
    const effects: Effect<typeof deps>[] = [
      consumeEffect,
      quotaEffect,
      freePeriodEffect,
      ...features.flatMap((parts) => parts.effects ?? []),
    ];
    for (const effect of effects) {
      this.effects.add(effect(this.action$, state$, deps).subscribe((action) => this.dispatch(action)));
    }
    // Without reload safety nothing is left to replay: recovered$ completes at once.
    this.recovery = features.find((parts) => parts.recovery !== undefined)?.recovery;
    this.recovered$ = this.recovery?.recovered$ ?? new Observable((subscriber) => subscriber.complete());
    this.effects.add(this.recovery?.start((externalId) => this.submit(externalId, undefined, true)));
  }

  private dispatch(action: BillingAction): void {
    this.store.dispatch(action);
    this.action$.next(action);
  }

  private track<T>(reply: Reply<T>, signal: AbortSignal | undefined, aborted: () => void): void {
    this.live.add(reply as Reply<unknown>);
    reply.abortOn(signal, aborted);
  }

  assertLive(): void {
    if (this.disposed) throw disposedError();
  }

  cached(): UsageInfo | null {
    this.assertLive();
    return toUsageInfo(this.store.state, this.setup.scheduler.now());
  }

  check(): BillingCheckResult {
    this.assertLive();
    return decide(this.store.state, this.setup.scheduler.now());
  }

  preview(): BillingPreview {
    this.assertLive();
    return preview(this.store.state, this.setup.scheduler.now());
  }

  /** Runs `teardown` on dispose, with the effects (a feature armed outside them). */
  onDispose(teardown: () => void): void {
    this.effects.add(teardown);
  }

  private load<T>(kind: LoadRequest['kind'], signal: AbortSignal | undefined): Promise<T> {
    if (this.disposed) return Promise.reject(disposedError());
    const reply = new Reply<T>((settled) => this.live.delete(settled as Reply<unknown>));
    this.track(reply, signal, () => {
      reply.reject(new BillingError('aborted', 'The call was aborted'));
      reply.cancel?.();
    });
    if (!reply.settled) this.loads.next({ kind, fresh: false, reply } as unknown as LoadRequest);
    return reply.promise;
  }

  async getUsage(options?: GetUsageOptions | null): Promise<UsageInfo> {
    const signal = signalOf(options, 'getUsage');
    if (signal instanceof BillingError) throw signal;
    await this.load<void>('usage', signal);
    // The cache after applying, so an answer older than what it holds loses.
    return toUsageInfo(this.store.state, this.setup.scheduler.now()) as UsageInfo;
  }

  balance(): Promise<number> {
    return this.load<number>('balance', undefined);
  }

  consume(options?: ConsumeOptions | null): Promise<BillingConsumeResult> {
    if (this.disposed) return Promise.reject(disposedError());
    const signal = signalOf(options, 'consume');
    if (signal instanceof BillingError) return Promise.reject(signal);
    const externalId = options?.externalId;
    const invalid = validateExternalId(externalId);
    if (invalid !== null) return Promise.reject(invalid);
    // A free period with nothing queued: answered at once, no request, no id, nothing built.
    if (this.consuming === 0 && signal?.aborted !== true && this.check().reason === 'free_period') {
      this.setup.monitor.freeConsume(externalId);
      return this.freeReply.for(this.store.state);
    }
    return this.submit(externalId, signal, false);
  }

  private submit(externalId: string | undefined, signal: AbortSignal | undefined, replay: boolean) {
    const request = new ConsumeRequest(externalId, signal, replay, (settled, ok, outcome) => {
      this.live.delete(settled as Reply<unknown>);
      this.setup.monitor.consumed(settled, ok, outcome);
      this.consuming--;
      // The caller has the outcome (or was told the client is gone): nothing is left to replay.
      this.forget(settled.externalId);
    });
    this.consuming++;
    this.track(request, signal, () => {
      // Until the backend has charged, an abort fails the call; after, the charge stands.
      if (request.charged !== null) request.resolve(request.charged);
      else request.reject(new BillingError('aborted', 'consume() was aborted'));
      request.cancel?.();
    });
    if (!request.settled) this.consumes.next(request);
    return request.promise;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Pending calls settle first (a charged consume resolves) and clear the journal, synchronously;
    // then the effects go, aborting requests and timers and closing the features' channels.
    for (const reply of [...this.live]) {
      const charged = reply instanceof ConsumeRequest ? reply.charged : null;
      if (charged !== null) reply.resolve(charged);
      else reply.reject(disposedError());
    }
    this.effects.unsubscribe();
    this.recovery?.stop();
    this.setup.monitor.complete();
    this.store.complete();
    this.action$.complete();
    this.consumes.complete();
    this.loads.complete();
  }
}
