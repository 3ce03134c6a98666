import {
  ReplaySubject,
  Subject,
  firstValueFrom,
  merge,
  of,
  take,
  takeUntil,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { randomId as uuidv4 } from '../platform/random-id';
import { decide } from '../core/decide';
import { toUsageInfo } from '../core/usage-view';
import { BillingError } from '../errors';
import type { BillingApi } from '../transport/billing-api';
import type {
  BillingCheckResult,
  BillingConsumeResult,
  ConsumeOptions,
  GetUsageOptions,
  RecoveredConsume,
  UsageInfo,
} from '../types';
import { aborted$, failWhen } from './abort';
import { consumeEffect } from './consume-effect';
import { consumeReply } from './consume-reply';
import { isFact, type ConsumeOutcome, type EngineAction } from './engine-actions';
import type { ConsumeJournal, EngineExtensions, PluginContext } from './extensions';
import { freePeriodEffect } from './free-period-effect';
import { createQuotaLoader, type QuotaLoader } from './quota-loader';
import { Store } from './store';
import { freePeriodRemainingView, usageChanges, usageView } from './views';
import { validateExternalId } from './validate-external-id';

/**
 * Wires the store, the action stream and the effects, and offers the
 * operations the public facade exposes. One engine per client.
 */
export class Engine {
  readonly store = new Store();
  private readonly action$ = new Subject<EngineAction>();
  // Replays to late subscribers, so anything started after dispose fails at once.
  private readonly disposed$ = new ReplaySubject<void>(1);
  private readonly recovered = new ReplaySubject<RecoveredConsume>();
  private readonly loader: QuotaLoader;
  private seq = 0;
  private requestId = 0;
  private disposed = false;
  private readonly journal: ConsumeJournal | undefined;
  // Ids this client journaled and has not yet reported, so only those are cleared from storage.
  private readonly journaled = new Set<string>();
  // Settles each pending consume when the client is disposed.
  private readonly settleOnDispose = new Set<() => void>();
  // Replays whose outcome recovered$ has yet to deliver.
  private replaying = 0;
  readonly usage$: Observable<UsageInfo>;
  readonly changes$: Observable<UsageInfo>;
  readonly freePeriodRemaining$: Observable<number>;
  readonly recovered$: Observable<RecoveredConsume> = this.recovered.asObservable();

  constructor(
    private readonly api: BillingApi,
    private readonly scheduler: SchedulerLike,
    extensions: EngineExtensions = {},
  ) {
    const nextSeq = () => ++this.seq;
    this.loader = createQuotaLoader(
      api,
      (action) => this.dispatch(action),
      nextSeq,
      () => scheduler.now(),
    );
    const { exclusive, journal } = extensions;
    this.journal = journal;
    const record = journal && {
      add: (externalId: string) => {
        this.journaled.add(externalId);
        journal.add(externalId);
      },
    };
    const deps = { api, loader: this.loader, scheduler, nextSeq, exclusive, journal: record };
    const context: PluginContext = {
      action$: this.action$,
      state$: this.store.state$,
      store: this.store,
      scheduler,
    };
    const plugins = (extensions.plugins ?? []).map((plugin) => plugin(context));
    merge(consumeEffect(this.action$, this.store, deps), freePeriodEffect(this.store.state$, scheduler), ...plugins)
      .pipe(failWhen(this.disposed$, () => this.disposedError()))
      .subscribe({ next: (action) => this.dispatch(action), error: () => undefined });
    this.usage$ = usageView(this.store.state$, scheduler);
    this.changes$ = usageChanges(this.store.state$, scheduler);
    // Its ticking inner timer outlives the store's completion, so it is cut explicitly.
    this.freePeriodRemaining$ = freePeriodRemainingView(this.store.state$, scheduler).pipe(takeUntil(this.disposed$));
    this.replay(journal?.pending() ?? of([]));
  }

  // Consumes an earlier page sent but never heard back from go out again with the same id;
  // the backend's idempotency makes that at most one charge, and recovered$ tells the outcome.
  // The journal may take a short while to learn which pages are alive; dispose cuts that wait.
  private replay(pending$: Observable<readonly string[]>): void {
    let heard = false;
    // Without an answer (cut by dispose, or a journal that failed) nothing is replayed: recovered$ completes.
    const none = () => heard || this.recovered.complete();
    pending$.pipe(take(1), takeUntil(this.disposed$)).subscribe({
      next: (externalIds) => {
        heard = true;
        this.replayAll(externalIds);
      },
      error: none,
      complete: none,
    });
  }

  private replayAll(externalIds: readonly string[]): void {
    if (this.disposed) return;
    this.replaying = externalIds.length;
    if (this.replaying === 0) this.recovered.complete();
    for (const externalId of externalIds) {
      this.submit(externalId, undefined, true)
        .then(
          (result): ConsumeOutcome => ({ ok: true, result }),
          (error: unknown): ConsumeOutcome => ({ ok: false, error: error as BillingError }),
        )
        .then((outcome) => {
          this.recovered.next({ externalId, outcome });
          if (--this.replaying === 0) this.recovered.complete();
        });
    }
  }

  private dispatch(action: EngineAction): void {
    if (isFact(action)) this.store.dispatch(action);
    this.action$.next(action);
  }

  private disposedError(): BillingError {
    return new BillingError('disposed', 'This billing client has been disposed');
  }

  private guard<T>(source: Observable<T>, signal?: AbortSignal, aborted = 'The call was aborted'): Promise<T> {
    if (this.disposed) return Promise.reject(this.disposedError());
    return firstValueFrom(
      source.pipe(
        failWhen(aborted$(signal), () => new BillingError('aborted', aborted)),
        failWhen(this.disposed$, () => this.disposedError()),
      ),
    );
  }

  assertLive(): void {
    if (this.disposed) throw this.disposedError();
  }

  cached(): UsageInfo | null {
    this.assertLive();
    return toUsageInfo(this.store.state, this.scheduler.now());
  }

  check(): BillingCheckResult {
    this.assertLive();
    return decide(this.store.state, this.scheduler.now());
  }

  async getUsage(options: GetUsageOptions = {}): Promise<UsageInfo> {
    await this.guard(this.loader.usage(), options.signal);
    // The cache after applying, so an answer older than what it holds loses.
    return toUsageInfo(this.store.state, this.scheduler.now()) as UsageInfo;
  }

  balance(): Promise<number> {
    return this.guard(this.loader.balance());
  }

  consume(options: ConsumeOptions = {}): Promise<BillingConsumeResult> {
    if (this.disposed) return Promise.reject(this.disposedError());
    const invalid = validateExternalId(options.externalId);
    if (invalid !== null) return Promise.reject(invalid);
    return this.submit(options.externalId ?? uuidv4(), options.signal, false);
  }

  private submit(externalId: string, signal: AbortSignal | undefined, replay: boolean): Promise<BillingConsumeResult> {
    const id = ++this.requestId;
    const reply = consumeReply({
      id,
      signal,
      action$: this.action$,
      onDispose: this.settleOnDispose,
      disposedError: () => this.disposedError(),
      settled: () => this.forget(externalId),
    });
    this.dispatch({ type: 'consume/requested', id, externalId, signal, replay });
    return reply.catch((error: unknown) => {
      throw error instanceof BillingError && error.externalId === undefined ? error.withExternalId(externalId) : error;
    });
  }

  // The caller has the outcome (or was told the client is gone): nothing is left to replay.
  private forget(externalId: string): void {
    if (this.journaled.delete(externalId)) this.journal?.remove(externalId);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Pending consumes settle first (a charged one resolves); then effects unsubscribe, aborting
    // requests and timers. recovered$ completes once the replays in flight have reported.
    [...this.settleOnDispose].forEach((settle) => settle());
    this.disposed$.next();
    this.disposed$.complete();
    if (this.replaying === 0) this.recovered.complete();
    this.store.complete();
    this.action$.complete();
  }
}
