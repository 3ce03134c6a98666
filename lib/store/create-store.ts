import { BehaviorSubject, Observable, Subject, Subscription, type SchedulerLike } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { decide, inFreePeriod } from '../core/decide';
import { preview, type BillingPreview } from '../core/preview';
import { reduce } from '../core/reducer';
import { initialState, type BillingState } from '../core/state';
import { sameUsage, toUsageInfo } from '../core/usage-view';
import { BillingError } from '../shared/errors';
import type { BillingEvent } from '../features/events/billing-event';
import { createEventHub } from '../features/events/event-hub';
import { eventsOf } from '../features/events/event-of';
import type { RecoveredConsume } from '../shared/feature-types';
import { restoreAction, toSnapshot, type BillingSnapshot } from '../core/snapshot';
import type { BillingStatus } from '../core/billing-status';
import type { BillingApi } from '../transport/billing-api';
import type {
  BillingCheckResult,
  BillingConsumeResult,
  ConsumeOptions,
  GetUsageOptions,
  UsageInfo,
} from '../shared/types';
import { invalidOptions } from './call-options';
import { startConsume, unchargedResult, type ConsumeContext } from './consume';
import type { FeatureParts } from '../features/feature';
import { freePeriodTimer } from './free-period-timer';
import { flight } from './flight';
import { fetchBalance, fetchUsage } from './usage';
import { freePeriodRemainingView, statusView } from './views';

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

const disposedError = () => new BillingError('disposed', 'This billing client has been disposed');
// A consume that settles without a POST still open: refused before anything was sent, or free.
const UNSENT = { type: 'consume/settled', externalId: null, charged: false, open: false } as const;

/**
 * One client's store and its operations: the state is a `BehaviorSubject`
 * changed only by dispatching facts through the pure reducer; the status,
 * the events and the views are read from it. A consume is `runConsume`, a
 * usage fetch `fetchUsage`; the features' effects turn facts into facts.
 * The members are closures over the constructor's locals, so `billing`'s
 * methods can be passed around unbound.
 */
export class Engine {
  readonly usage$!: Observable<UsageInfo>;
  /** Every change of the usage, never the value current at subscription (`onChange`). */
  readonly changes$!: Observable<UsageInfo>;
  readonly status$!: Observable<BillingStatus>;
  readonly events$!: Observable<BillingEvent>;
  readonly freePeriodRemaining$!: Observable<number>;
  readonly recovered$!: Observable<RecoveredConsume>;
  readonly getUsage!: (options?: GetUsageOptions | null) => Promise<UsageInfo>;
  readonly getBalance!: () => Promise<number>;
  readonly consume!: (options?: ConsumeOptions | null) => Promise<BillingConsumeResult>;
  readonly cached!: () => UsageInfo | null;
  readonly check!: () => BillingCheckResult;
  readonly preview!: () => BillingPreview;
  readonly status!: () => BillingStatus;
  readonly snapshot!: () => BillingSnapshot | null;
  /** Emits a `request:retry` event (the transport's hook), built only while someone listens. */
  readonly retried!: (attempt: number, delayMs: number, path: string) => void;
  /** Runs `teardown` on dispose, with the effects (a feature armed outside them). */
  readonly onDispose!: (teardown: () => void) => void;
  /** Throws `disposed` once the client is disposed. */
  readonly assertLive!: () => void;
  readonly dispose!: () => void;

  constructor(setup: EngineSetup) {
    const { scheduler, features, wallNow } = setup;
    const state$ = new BehaviorSubject(initialState);
    const action$ = new Subject<BillingAction>();
    const changes = new Subject<UsageInfo>();
    const hub = createEventHub(setup.onEvent);
    const teardown = new Subscription();
    const part = <K extends keyof FeatureParts>(key: K) => features.find((parts) => parts[key])?.[key];
    const journal = part('journal');
    // What this client journaled: only that is cleared, another page's entries (a shared storage) are not ours.
    const journaled = new Set<string>();
    const recovery = part('recovery');
    const now = () => scheduler.now();
    const state = () => state$.value;
    let disposed = false;
    let shown: UsageInfo | null = null;
    let seq = 0;
    // A free-period answer kept while the free count it shows holds, so a burst allocates nothing.
    let free: { result: BillingConsumeResult; promise: Promise<BillingConsumeResult>; action: BillingAction } | null =
      null;

    const timer = freePeriodTimer(
      scheduler,
      () => state().freePeriodEnd,
      (action) => dispatch(action),
    );

    /** Applies a fact: the reducer, then the views, the events, and the effects watching action$ (DevTools is one). */
    const dispatch = (action: BillingAction): void => {
      if (disposed) return;
      const before = state();
      const after = reduce(before, action);
      if (after !== before) {
        if (after.freePeriodEnd !== before.freePeriodEnd) timer.arm(after.freePeriodEnd);
        state$.next(after);
        const usage = toUsageInfo(after, now());
        if (usage !== null && !sameUsage(usage, shown)) changes.next((shown = usage));
      }
      // Built only while someone listens.
      if (hub.active()) for (const event of eventsOf(action, before, after, now())) hub.emit(event);
      // Only the features' effects read action$: a free consume with none costs no delivery.
      if (action$.observed) action$.next(action);
    };

    const context: ConsumeContext = {
      api: setup.api,
      dispatch,
      now,
      state,
      stamp: () => ++seq,
      newId: setup.newId,
      exclusive: part('exclusive'),
      journal:
        journal &&
        ((externalId) => {
          journaled.add(externalId);
          journal.add(externalId);
        }),
      forget: (externalId) => {
        if (journaled.delete(externalId)) journal?.remove(externalId);
      },
      balance: flight((controller) => fetchBalance(context, controller)),
      tail: Promise.resolve(),
      live: new Set(),
    };
    const usage = flight((controller) => fetchUsage(context, controller));

    const assertLive = () => {
      if (disposed) throw disposedError();
    };
    // A read of the store at the scheduler's now, refused once disposed.
    const read =
      <T>(view: (state: BillingState, now: number) => T) =>
      () => (assertLive(), view(state(), now()));
    // After dispose() the state is the last one: nothing is applied any more.
    const snapshot = () => toSnapshot(state(), now(), wallNow());
    if (setup.bootstrap) dispatch(restoreAction(setup.bootstrap, now(), wallNow()));
    // A nudge (another tab's change) joins a fetch sent after it, or queues one; it settles (never rejects)
    // once the fetch that answers it is applied, so a feature can tell that answer's echo.
    const refetchUsage = () => usage.join(undefined, true).catch(() => undefined);
    const deps = { scheduler, refetchUsage };
    for (const effect of features.flatMap((parts) => parts.effects ?? [])) {
      teardown.add(effect(action$, state$, deps).subscribe(dispatch));
    }
    teardown.add(recovery?.start((externalId) => startConsume(context, externalId, undefined, true)));
    Object.assign(this, {
      assertLive,
      changes$: changes.asObservable(),
      // The current usage to each subscriber (measured now), then every change (contract 3.4).
      usage$: new Observable<UsageInfo>((subscriber) => {
        const current = disposed ? null : toUsageInfo(state(), now());
        if (current !== null) subscriber.next(current);
        return changes.subscribe(subscriber);
      }),
      status$: statusView(state$),
      events$: hub.events$,
      freePeriodRemaining$: freePeriodRemainingView(state$, scheduler),
      // Without reload safety nothing is left to replay: recovered$ completes at once.
      recovered$: recovery?.recovered$ ?? new Observable((subscriber) => subscriber.complete()),
      cached: read(toUsageInfo),
      check: read(decide),
      preview: read(preview),
      status: read(({ status }) => status),
      snapshot,
      retried: (attempt: number, delayMs: number, path: string) => {
        if (hub.active()) hub.emit({ type: 'request:retry', at: now(), attempt, delayMs, path });
      },
      onDispose: (down: () => void) => void teardown.add(down),
      async getUsage(options?: GetUsageOptions | null) {
        assertLive();
        const invalid = invalidOptions(options, 'getUsage');
        if (invalid) throw invalid;
        await usage.join(options?.signal);
        // The cache after applying, so an answer older than what it holds loses.
        return toUsageInfo(state(), now()) as UsageInfo;
      },
      getBalance: () => (disposed ? Promise.reject(disposedError()) : context.balance.join()),
      consume(options?: ConsumeOptions | null) {
        if (disposed) return Promise.reject(disposedError());
        const invalid = invalidOptions(options, 'consume');
        if (invalid) {
          // Refused before anything was sent, and still told as a failed consume.
          dispatch({ ...UNSENT, result: null, error: invalid });
          return Promise.reject(invalid);
        }
        const externalId = options?.externalId;
        const signal = options?.signal;
        // A free period with nothing queued: answered at once, no request, no id, nothing built.
        if (context.live.size > 0 || signal?.aborted || !inFreePeriod(state(), now()))
          return startConsume(context, externalId, signal, false);
        if (free?.result.freeRemaining !== (state().quota?.freeRemaining ?? 0)) {
          const result = Object.freeze(unchargedResult(state()));
          free = { result, promise: Promise.resolve(result), action: { ...UNSENT, result, error: null } };
        }
        dispatch(externalId === undefined ? free.action : ({ ...free.action, externalId } as BillingAction));
        return free.promise;
      },
      dispose() {
        if (disposed) return;
        // Pending calls settle first (an answered consume with its answer) and clear the journal,
        // synchronously; then the effects, the requests and the timers go.
        context.live.forEach((stop) => stop(disposedError()));
        disposed = true;
        usage.stop(disposedError());
        context.balance.stop(disposedError());
        timer.stop();
        teardown.unsubscribe();
        recovery?.stop();
        hub.complete();
        changes.complete();
        state$.complete();
        action$.complete();
      },
    } satisfies Omit<Engine, never>);
  }
}
