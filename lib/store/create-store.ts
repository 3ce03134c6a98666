import { BehaviorSubject, Observable, Subject, Subscription } from 'rxjs';
import type { ConsumeSettled } from '../core/actions';
import { decide, inFreePeriod } from '../core/decide';
import { preview } from '../core/preview';
import { initialState, type BillingState } from '../core/state';
import { toUsageInfo } from '../core/usage-view';
import { restoreAction, toSnapshot } from '../core/snapshot';
import { BillingError, invalid } from '../shared/errors';
import type { BillingStatus } from '../shared/billing-status';
import { sameUsage } from '../shared/quota-keys';
import type { BillingConsumeResult, UsageInfo } from '../shared/types';
import type { BillingModule, Client, StoreSetup } from './billing-module';
import { callOptionsError } from './call-options';
import { startConsume, unchargedResult } from './consume';
import type { ConsumeContext } from './consume-call';
import { eventsWithoutFeature } from './events-without-feature';
import { flight } from './flight';
import { firstHook } from './hooks';
import { createStoreCore, type Observer } from './store-core';
import { fetchBalance, fetchUsage } from './usage';
import { freePeriodRemainingView } from './views';

const disposedError = () => new BillingError('disposed', __DEV__ ? 'This client has been disposed' : 'disposed');
// What a consume that settles without a POST still open shares: refused before anything was sent, or free.
const unsent = { type: 'consume/settled', externalId: null, charged: false, unanswered: false } as const;

/**
 * The billing module, built on the store core (`store-core.ts`): the consume
 * context, the usage and balance flights, the features' effects and the
 * public API. A consume is `runConsume`, a usage fetch `fetchUsage`; the
 * features' hooks are called where the store says, by role, never by name.
 * Every method is a closure, so it can be passed around unbound.
 */
export function createStore(setup: StoreSetup): Client {
  const { scheduler, hooks, wallNow } = setup;
  const now = () => scheduler.now();
  const changes = new Subject<UsageInfo>();
  // The reducer keeps the status the same object while nothing in it changed.
  const status$ = new BehaviorSubject<BillingStatus>(initialState.status);
  let shown: UsageInfo | null = null;
  // The views, told first of each fact: the status, and each change of the usage shown.
  const views: Observer = (_action, before, after) => {
    if (after === before) return;
    if (after.status !== before.status) status$.next(after.status);
    const usage = toUsageInfo(after, now());
    if (usage !== null && !sameUsage(usage, shown)) changes.next((shown = usage));
  };
  const recovered = firstHook(hooks, 'recovery')?.(hooks);
  const core = createStoreCore(scheduler, [views, ...hooks.flatMap((hook) => hook.observe ?? []), recovered?.observe]);
  const { state$, dispatch } = core;
  const state = () => state$.value;
  const teardown = new Subscription();
  let disposed = false;
  let seq = 0;
  // A free-period answer kept while the free count it shows holds, so a burst allocates nothing.
  let free: { promise: Promise<BillingConsumeResult>; action: ConsumeSettled } | null = null;

  const context: ConsumeContext = {
    api: setup.api,
    dispatch,
    state,
    now,
    nextRequestNumber: () => ++seq,
    consumeLock: firstHook(hooks, 'consumeLock'),
    journal: firstHook(hooks, 'journal'),
    recovery: recovered,
    tail: Promise.resolve(),
    waiting: new Set(),
    balance: flight((controller) => fetchBalance(context, controller)),
    newId: setup.newId,
    disposal: new AbortController(),
  };
  const usage = flight((controller) => fetchUsage(context, controller));

  const assertNotDisposed = () => {
    if (disposed) throw disposedError();
  };
  // A read of the store at the scheduler's now, refused once disposed.
  const read =
    <T>(view: (state: BillingState, now: number) => T) =>
    () => (assertNotDisposed(), view(state(), now()));
  const getBalance = () => (disposed ? Promise.reject(disposedError()) : context.balance.join());
  if (setup.bootstrap) dispatch(restoreAction(setup.bootstrap, now(), wallNow()));
  for (const effect of hooks.flatMap((hook) => hook.effects ?? []))
    teardown.add(effect(core.action$, state$, { scheduler, usage }).subscribe(dispatch));
  teardown.add(recovered?.start(context));

  const billing: BillingModule = {
    async getUsage(options) {
      assertNotDisposed();
      const refused = callOptionsError(options, 'getUsage');
      if (refused) throw refused;
      await usage.join({ signal: options?.signal });
      // The cache after applying, so an answer older than what it holds loses.
      return toUsageInfo(state(), now()) as UsageInfo;
    },
    getCachedUsage: read(toUsageInfo),
    check: read(decide),
    consume(options) {
      if (disposed) return Promise.reject(disposedError());
      const refused = callOptionsError(options, 'consume');
      if (refused) {
        // Refused before anything was sent, and still told as a failed consume.
        dispatch({ ...unsent, result: null, error: refused });
        return Promise.reject(refused);
      }
      // Read one by one: an `options ?? {}` to destructure would be an object per free consume.
      const externalId = options?.externalId;
      const signal = options?.signal;
      // A free period with nothing queued: answered at once, no request, no id, nothing built.
      if (context.waiting.size > 0 || signal?.aborted || !inFreePeriod(state(), now()))
        return startConsume(context, { externalId, signal });
      if (free?.action.result?.freeRemaining !== (state().quota?.freeRemaining ?? 0)) {
        const result = Object.freeze(unchargedResult(state()));
        free = { promise: Promise.resolve(result), action: { ...unsent, result, error: null } };
      }
      dispatch(externalId === undefined ? free.action : { ...free.action, externalId });
      return free.promise;
    },
    refreshCredits: () => getBalance().then(() => undefined),
    onChange(callback) {
      assertNotDisposed();
      if (typeof callback !== 'function') invalid(__DEV__ ? 'onChange needs a function' : 'invalid onChange', callback);
      const subscription = changes.subscribe((usage) => callback(usage));
      return () => subscription.unsubscribe();
    },
    // The current usage to each subscriber (measured now), then every change (contract 3.4).
    usage$: new Observable<UsageInfo>((subscriber) => {
      const usage = disposed ? null : toUsageInfo(state(), now());
      if (usage !== null) subscriber.next(usage);
      return changes.subscribe(subscriber);
    }),
    freePeriodRemaining$: freePeriodRemainingView(state$, scheduler),
    // Without a feature that finds unanswered POSTs nothing is left to replay: recovered$ completes at once.
    recovered$: recovered?.recovered$ ?? new Observable((subscriber) => subscriber.complete()),
    getStatus: read(({ status }) => status),
    status$: status$.asObservable(),
    events$: firstHook(hooks, 'events$') ?? eventsWithoutFeature(changes),
    preview: read(preview),
    // After dispose() the state is the last one: nothing is applied any more.
    snapshot: () => toSnapshot(state(), now(), wallNow()),
    dispose() {
      if (disposed) return;
      // Pending calls settle first (an answered consume with its answer) and clear the journal,
      // synchronously; then the effects, the requests and the timers go.
      context.waiting.forEach((end) => end(disposedError()));
      disposed = true;
      context.disposal.abort();
      core.stop();
      usage.stop(disposedError());
      context.balance.stop(disposedError());
      teardown.unsubscribe();
      for (const stream of [changes, status$, state$, core.action$]) stream.complete();
    },
  };
  return { billing, credits: { getBalance } };
}
