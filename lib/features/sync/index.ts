import { Observable } from 'rxjs';
import type { BillingAction } from '../../core/actions';
import { inFreePeriod } from '../../core/decide';
import { FREE_PERIOD_MS, type Quota } from '../../core/state';
import type { Effect, StateSource } from '../../store/effect';
import { deadline, deferred } from '../../shared/deadline';
import type { LocksLike, SyncOptions } from '../../shared/feature-types';
import { sameUsage } from '../../shared/quota-keys';
import { inBackground } from '../../shared/scheduler';
import { scopedName, type BillingFeature, type FeatureSetup } from '../feature';
import type { StoreHooks } from '../../store/hooks';
import { holdLock, locksOf, lockFree, recoveryHooks } from '../web-locks';
import { openChannel } from './channel';
import { consumeLock, type BeforeDecide } from './consume-lock';
import { deadPosts } from './dead-posts';
import { parseMessage, type SyncMessage } from './messages';

// How long a tab waits for the owners of a running period to tell its time left: a live tab answers at once.
const ASK_MS = 500;

/**
 * Tab sync for the `sync` option. Tabs of one origin share the free period a
 * charge starts (its time left, as its tab counts it, told by that tab) and
 * tell each other when the quota changed; each tab then fetches its own
 * usage, so no tab's state is ranked against another's. Where Web Locks
 * exist, consumes of one scope run one at a time across tabs (a click in
 * every tab at once is one charge), each wait for that lock bounded by
 * `timeoutMs`; a tab closed while its POST was out has that POST sent again
 * (same `external_id`) by the next consume of another tab, which reports it
 * on its `recovered$`. Without Web Locks, or without a working
 * `BroadcastChannel` (one warning), each tab bills on its own
 * ({@link https://cdn.jsdelivr.net/npm/unified-billing@0.2.0/docs/recipes/cross-tab.md | docs/recipes/cross-tab.md}).
 *
 * @example
 * ```ts
 * import { createClient, tabSync } from 'unified-billing';
 *
 * const client = createClient({ baseUrl, appKey: 'poster', sync: tabSync() });
 * ```
 */
export function tabSync(options: SyncOptions = {}): BillingFeature<'sync'> {
  const locks = locksOf(options?.locks, 'tabSync()');
  return { kind: 'sync', install: (setup) => installTabSync(setup, locks) };
}

/**
 * Tab sync for one client (the protocol and its reasons: the cross-tab recipe and the decisions log).
 * A tab learns a running period one way: its owner's `period` message, told at the charge and to
 * whoever asks. Under Web Locks a consume asks before deciding when the period lock is held by a
 * period it does not know, and first replays the POSTs of tabs that died (dead-posts.ts).
 */
function installTabSync(setup: FeatureSetup, locks: LocksLike | null): StoreHooks {
  const { scheduler, wallNow, pageId, scope } = setup;
  const periodLock = scopedName(scope, 'period');
  // Local ends (monotonic) of the periods adopted from other tabs, by id, to end them when their owner says.
  const adopted = new Map<string, number>();
  // This tab's own running periods, by id: their end, and how to stop them.
  const owned = new Map<string, { readonly end: number; readonly stop: (over?: boolean) => void }>();
  // Who waits for an answer to an `ask`: called once a period was adopted, or on dispose.
  const askers = new Set<() => void>();
  let channel: ReturnType<typeof openChannel> = null;
  let periods = 0;
  let refetch = (): void => undefined;
  // The store's state, once the effect runs.
  let state: StateSource | null = null;

  const post = (message: SyncMessage) => channel?.post(message);
  // Asks the owners of running periods for their time left: resolves once one was adopted, or after ASK_MS.
  const ask = async (): Promise<void> => {
    const firstAnswer = deferred();
    askers.add(firstAnswer.resolve);
    // A post that failed closed the channel: nobody will answer.
    if (!post({ kind: 'ask' })) firstAnswer.resolve();
    await deadline(() => firstAnswer.promise, { scheduler: inBackground(scheduler), ms: ASK_MS });
    askers.delete(firstAnswer.resolve);
  };
  const dead = locks && deadPosts(locks, setup, post);

  const effect: Effect = (action$, state$, deps) =>
    new Observable<BillingAction>((out) => {
      state = state$;
      // Refetches another tab's change message started, not yet applied: what they load tells nobody.
      let pendingRefetches = 0;
      // A change told while a fetch of this tab's own was in flight: weighed once that fetch lands.
      let toldQuota: Quota | null = null;
      let quota = state$.value.quota;
      refetch = () => {
        pendingRefetches += 1;
        void deps.refetchUsage().then(() => (pendingRefetches -= 1));
      };
      // A tab that already shows what the sender shows has nothing to fetch, so tabs that all fetched
      // (coming back online together) do not fetch again for each other; an old sender sends no hint.
      const onChanged = (q: Quota | undefined) => {
        if (q === undefined) return refetch();
        if (sameUsage(state$.value.quota, q)) return;
        if (state$.value.fetches > 0) toldQuota = q;
        else refetch();
      };
      // Never trusted beyond 30 s (the reducer caps it too); the owner's wall time only takes off a late delivery.
      const adoptPeriod = ({ id, left, at }: { id: string; left: number; at: number }): void => {
        const delay = wallNow() - at;
        const remainingMs = Math.min(delay > 0 ? left - delay : left, FREE_PERIOD_MS);
        if (owned.has(id) || !(remainingMs > 0)) return;
        const now = scheduler.now();
        for (const [key, end] of adopted) if (end <= now) adopted.delete(key);
        // The longest end told for this period is the one the reducer keeps, so `ended` can match it.
        adopted.set(id, Math.max(adopted.get(id) ?? 0, now + remainingMs));
        out.next({ type: 'freePeriod/adopted', now, remainingMs });
        askers.forEach((asker) => asker());
      };
      const tellOwnPeriods = () => {
        const now = scheduler.now();
        for (const [id, { end }] of owned) if (end > now) post({ kind: 'period', id, left: end - now, at: wallNow() });
      };
      channel = openChannel(scopedName(scope), (data) => {
        const message = parseMessage(data);
        if (message?.kind === 'period') adoptPeriod(message);
        if (message?.kind === 'ask') tellOwnPeriods();
        if (message?.kind === 'ended') {
          const end = adopted.get(message.id);
          adopted.delete(message.id);
          // Ends only the period adopted from that charge, not a later one of this tab's.
          if (end !== undefined) out.next({ type: 'freePeriod/ended', end });
        }
        if (message?.kind === 'changed') onChanged(message.q);
        if (message?.kind === 'sending' || message?.kind === 'sent') dead?.onMessage(message);
      });
      const startPeriod = () => {
        const id = `${pageId}.${(periods += 1)}`;
        // Requested before the consume lock is released, so the next holder's probe finds it.
        const release = locks ? holdLock(locks, periodLock) : () => undefined;
        // At its end the period is over for everyone; a dispose only lets go of the lock: the period
        // belongs to the user, and the tabs that adopted it keep it.
        const stop = (over = true) => {
          owned.delete(id);
          timer.unsubscribe();
          release();
          if (over) post({ kind: 'ended', id });
        };
        // Nobody awaits the end of a period: in Node its timer keeps nothing alive.
        const timer = inBackground(scheduler).schedule(() => stop(), FREE_PERIOD_MS);
        owned.set(id, { end: scheduler.now() + FREE_PERIOD_MS, stop });
        post({ kind: 'period', id, left: FREE_PERIOD_MS, at: wallNow() });
      };
      const subscription = action$.subscribe((action) => {
        const before = quota;
        quota = state$.value.quota;
        if (action.type === 'consume/charged') startPeriod();
        const landed = action.type === 'usage/loaded' || action.type === 'usage/failed';
        if (landed && toldQuota !== null && state$.value.fetches === 0) {
          if (!sameUsage(quota, toldQuota)) refetch();
          toldQuota = null;
        }
        // A fetch this tab made because of a change message tells nobody: the message already did.
        const refetchAnswer = pendingRefetches > 0 && action.type === 'usage/loaded';
        const consumeAnswer = action.type === 'consume/charged' || action.type === 'consume/insufficient';
        if (consumeAnswer || (!refetchAnswer && !sameUsage(before, quota))) {
          post({ kind: 'changed', ...(quota && { q: quota }) });
        }
        dead?.onAction(action);
      });
      // Joining: the owners of running periods tell their time left.
      void ask();
      return () => {
        subscription.unsubscribe();
        [...owned.values()].forEach(({ stop }) => stop(false));
        askers.forEach((asker) => asker());
        // A closed channel posts nothing: an `ask` or a replay under the lock after this tells nobody.
        channel?.close();
        refetch = () => undefined;
      };
    });

  // Under the consume lock: a dead tab's POSTs are replayed first (the answer starts this tab's period;
  // a replayed charge answers with its first figures, so the usage is fetched again); then a period lock
  // held by a period this tab does not know is asked about.
  const beforeDecide: BeforeDecide = async (replay, signal) => {
    await dead?.resend(async (id, replaySignal) => (await replay(id, replaySignal)) && (refetch(), true), signal);
    const knowsPeriod = state !== null && inFreePeriod(state.value, scheduler.now());
    if (!knowsPeriod && !(await lockFree(locks as LocksLike, periodLock))) await ask();
  };
  return {
    effects: [effect],
    ...(locks && {
      ...recoveryHooks(locks, setup),
      consumeLock: consumeLock(locks, setup, beforeDecide),
    }),
  };
}
