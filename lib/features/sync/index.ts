import { Observable } from 'rxjs';
import type { BillingAction } from '../../core/actions';
import { inFreePeriod } from '../../core/decide';
import { FREE_PERIOD_MS, type Quota } from '../../core/state';
import type { Effect, EffectDeps, StateSource } from '../../store/effect';
import { deadline, deferred } from '../../shared/deadline';
import type { LocksLike, SyncOptions } from '../../shared/feature-types';
import { sameUsage } from '../../shared/quota-keys';
import { inBackground } from '../../shared/scheduler';
import { scopedName, type BillingFeature, type FeatureSetup } from '../feature';
import type { StoreHooks } from '../../store/hooks';
import { consumeLock, holdLock, locksOf, lockFree, recoveryHooks } from '../web-locks';
import { openChannel } from './channel';
import { deadPosts, isConsumeAnswer } from './dead-posts';
import type { SyncMessage } from './messages';

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
 * whoever asks. Under Web Locks the consume lock, once held, answers what the holder must know before
 * deciding: it asks about a period lock held by a period this tab does not know, and hands over the
 * POSTs of tabs that died (dead-posts.ts) for the store to send again.
 */
function installTabSync(setup: FeatureSetup, locks: LocksLike | null): StoreHooks {
  const { scheduler, wallNow, pageId, scope } = setup;
  const periodLock = scopedName(scope, 'period');
  // The periods adopted from other tabs: their local end (monotonic), by id, to end one when its owner says.
  const adopted = new Map<string, number>();
  // This tab's running period, as the others were told it, and how to let go of the period lock.
  let ownPeriod: { readonly id: string; readonly end: number; readonly release: () => void } | null = null;
  // What an `ask` waits for: resolved (and made anew) once a period was adopted, and on dispose.
  let adoption = deferred();
  // While the effect runs: the store's state, its usage fetches, and the tab channel.
  let live: { state$: StateSource; usage: EffectDeps['usage']; channel: ReturnType<typeof openChannel> } | null = null;
  // Whether the usage being fetched was asked for by another tab's `changed`: its answer tells nobody.
  let echo = false;
  // The quota another tab told while a fetch of this tab's own was in flight: weighed once that fetch lands.
  let toldQuota: Quota | null = null;

  const post = (message: SyncMessage) => live?.channel?.post(message);
  // Fetches the usage after another tab's change.
  const refetch = (): void => {
    if (!live) return;
    echo = true;
    const answered = () => (echo = false);
    // A fetch sent after the nudge; whether it failed, its fact came first.
    void live.usage.join({ fresh: 'after' }).then(answered, answered);
  };
  // Tells this tab's running period with `left` ms to run, while any are left.
  const tellPeriod = (left: number) =>
    ownPeriod && left > 0 && post({ kind: 'period', id: ownPeriod.id, left, at: wallNow() });
  // Asks the owners of running periods for their time left: resolves once one was adopted, or after ASK_MS.
  const ask = async (): Promise<void> => {
    const { promise } = adoption;
    // A post that failed closed the channel: nobody will answer.
    if (post({ kind: 'ask' })) await deadline(() => promise, { scheduler: inBackground(scheduler), ms: ASK_MS });
  };
  const dead = locks && deadPosts(locks, setup, post);
  // At its end the period is over for everyone; a dispose only lets go of the lock: the period belongs to
  // the user, and the tabs that adopted it keep it.
  const endOwnPeriod = (over: boolean) => {
    if (over && ownPeriod) post({ kind: 'ended', id: ownPeriod.id });
    ownPeriod?.release();
    ownPeriod = null;
  };

  const effect: Effect = (_action$, state$, { usage }) =>
    new Observable<BillingAction>((out) => {
      // Never trusted beyond 30 s (the reducer caps it too); the owner's wall time only takes off a late delivery.
      const adoptPeriod = ({ id, left, at }: { id: string; left: number; at: number }): void => {
        const remainingMs = Math.min(left - Math.max(wallNow() - at, 0), FREE_PERIOD_MS);
        if (id === ownPeriod?.id || !(remainingMs > 0)) return;
        const now = scheduler.now();
        for (const [key, end] of adopted) if (end <= now) adopted.delete(key);
        // The longest end told for this period is the one the reducer keeps, so `ended` can match it.
        adopted.set(id, Math.max(adopted.get(id) ?? 0, now + remainingMs));
        out.next({ type: 'freePeriod/adopted', now, remainingMs });
        adoption.resolve();
        adoption = deferred();
      };
      const channel = openChannel(scopedName(scope), (message) => {
        if (message?.kind === 'period') adoptPeriod(message);
        if (message?.kind === 'ask' && ownPeriod) tellPeriod(ownPeriod.end - scheduler.now());
        if (message?.kind === 'ended') {
          const end = adopted.get(message.id);
          adopted.delete(message.id);
          // Ends only the period adopted from that charge, not a later one of this tab's.
          if (end !== undefined) out.next({ type: 'freePeriod/ended', end });
        }
        // A tab that already shows what the sender shows has nothing to fetch, so tabs that all fetched
        // (coming back online together) do not fetch again for each other; an old sender sends no hint.
        // While its own fetch is in flight, the hint is weighed against what that fetch brings.
        if (message?.kind === 'changed' && !(message.q && sameUsage(state$.value.quota, message.q))) {
          if (message.q && state$.value.fetches > 0) toldQuota = message.q;
          else refetch();
        }
        if (message?.kind === 'sending' || message?.kind === 'sent') dead?.onMessage(message);
      });
      live = { state$, usage, channel };
      // Joining: the owners of running periods tell their time left.
      void ask();
      return () => {
        endOwnPeriod(false);
        adoption.resolve();
        // A closed channel posts nothing: an `ask` or a replay under the lock after this tells nobody.
        channel?.close();
        live = null;
      };
    });

  // Each applied fact, with the states around it: this tab's charge starts its period (its end read from
  // the state, whose one timer ends it), and what changed is told.
  const observe: StoreHooks['observe'] = (action, before, after) => {
    if (action.type === 'consume/charged' && after.freePeriodEnd !== null) {
      endOwnPeriod(false);
      // Requested before the consume lock is released, so the next holder's probe finds it.
      const release = locks ? holdLock(locks, periodLock).release : () => undefined;
      ownPeriod = { id: `${pageId}.${after.freePeriodEnd}`, end: after.freePeriodEnd, release };
      tellPeriod(FREE_PERIOD_MS);
    }
    if (ownPeriod && !inFreePeriod(after, scheduler.now())) endOwnPeriod(true);
    // No fetch in flight any more: the one that was when the quota was told has landed.
    if (toldQuota !== null && after.fetches === 0) {
      if (!sameUsage(after.quota, toldQuota)) refetch();
      toldQuota = null;
    }
    // A fetch this tab made because of a change message tells nobody: the message already did.
    const echoed = echo && action.type === 'usage/loaded';
    if (isConsumeAnswer(action) || (!echoed && !sameUsage(before.quota, after.quota))) {
      post({ kind: 'changed', ...(after.quota && { q: after.quota }) });
    }
    dead?.onAction(action);
  };

  // With Web Locks: under the consume lock, a period lock held by a period this tab does not know is asked
  // about; the dead tabs' POSTs are the lock's answer.
  const lockHooks = (locks: LocksLike, dead: ReturnType<typeof deadPosts>): StoreHooks => ({
    ...recoveryHooks(locks, setup),
    consumeLock: consumeLock(locks, setup, async (signal) => {
      const knowsPeriod = live !== null && inFreePeriod(live.state$.value, scheduler.now());
      if (!knowsPeriod && !(await lockFree(locks, periodLock))) await ask();
      return dead.orphans(signal);
    }),
  });
  return { effects: [effect], observe, ...(locks && dead && lockHooks(locks, dead)) };
}
