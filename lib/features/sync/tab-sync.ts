import { Observable, Subject } from 'rxjs';
import type { BillingAction } from '../../core/actions';
import type { Quota } from '../../core/state';
import type { Effect } from '../../store/effect';
import type { FeatureParts, FeatureSetup } from '../feature';
import type { LocksLike } from '../../shared/feature-types';
import { inBackground } from '../../shared/scheduler';
import { holdLock, lockFree } from '../web-locks';
import { openChannel, type SyncChannel } from './channel';
import { consumeLock, type Learn } from './consume-lock';
import { deadPosts } from './dead-posts';
import { datedPeriods } from './dated-periods';
import { parseMessage, type SyncMessage } from './messages';

const FREE_PERIOD_MS = 30_000;
// How long a tab waits for the owners of a running period to tell its time left: a live tab answers at once.
const ASK_MS = 500;

function sameQuota(a: Quota | null, b: Quota | null): boolean {
  if (a === null || b === null) return a === b;
  return (Object.keys(a) as Array<keyof Quota>).every((key) => a[key] === b[key]);
}

/**
 * What the sync effect needs besides the clock: a nudge for a usage fetch of
 * this tab's own, which joins one sent after it or queues one, and settles
 * once the fetch that answers it is applied.
 */
export interface SyncDeps {
  readonly refetchUsage: () => Promise<void>;
}

/**
 * Tab sync for one client. A charge starts a free period its tab owns: it holds
 * the scope's period lock for exactly its length on its own monotonic clock,
 * and tells the time left as a duration (`period`), at the charge and to any
 * tab that asks. Under Web Locks, consumes take one lock per scope; the holder
 * probes the period lock (`ifAvailable`) and, when it is held by a period it
 * does not know, asks its owner. Before that, it sends again the POST of a tab
 * that died holding the lock (dead-posts.ts). Neither needs `query()`; a channel that throws
 * is no channel; see {@link https://cdn.jsdelivr.net/npm/unified-billing@0.2.0/docs/recipes/cross-tab.md | docs/recipes/cross-tab.md} for what each missing API gives up.
 */
export function installTabSync(setup: FeatureSetup, locks: LocksLike | null): FeatureParts {
  const { scheduler, wallNow, pageId } = setup;
  const base = `unified-billing:${setup.scope}`;
  const periodLock = `${base}:period`;
  // Facts learned outside the action stream (under the consume lock), emitted by the effect.
  const learned = new Subject<BillingAction>();
  // Local ends (monotonic) of the periods adopted from other tabs, by id, to end them when their owner says.
  const adopted = new Map<string, number>();
  // This tab's own running periods, by id: their end, and how to stop them.
  const owned = new Map<string, { readonly end: number; readonly stop: (over?: boolean) => void }>();
  // Who waits for a period to be told (an `ask`): called with true once one was adopted, false if none was.
  const waiting = new Set<(heard: boolean) => void>();
  let channel: SyncChannel | null = null;
  let periods = 0;
  // A usage fetch of this tab's own, once the effect runs (a nudge's).
  let refresh = (): void => undefined;

  // Never trusted beyond 30 s (the reducer caps it too).
  const adopt = (remainingMs: number, id: string): void => {
    if (!(remainingMs > 0)) return;
    const now = scheduler.now();
    const left = Math.min(remainingMs, FREE_PERIOD_MS);
    for (const [key, end] of adopted) if (end <= now) adopted.delete(key);
    // The longest end told for this period is the one the reducer keeps, so `ended` can match it.
    adopted.set(id, Math.max(adopted.get(id) ?? 0, now + left));
    learned.next({ type: 'freePeriod/adopted', now, remainingMs: left });
    waiting.forEach((heard) => heard(true));
  };
  // The time left is the owner's own; its wall time only takes off a late delivery, never adds to it.
  const adoptTold = ({ id, left, at }: { id: string; left: number; at: number }) => {
    if (owned.has(id)) return;
    const late = wallNow() - at;
    adopt(late > 0 ? left - late : left, id);
  };
  const dated = datedPeriods(`${base}:free:`, wallNow, FREE_PERIOD_MS);
  // The fallback when no owner answers (a tab frozen in the debugger): the periods' lock names, dated by the wall clock.
  const adoptHeld = async (): Promise<void> => {
    for (const { id, remainingMs } of dated(await locks?.query?.())) if (!owned.has(id)) adopt(remainingMs, id);
  };
  const runningHere = () => {
    const now = scheduler.now();
    return [...owned.values()].some(({ end }) => end > now) || [...adopted.values()].some((end) => end > now);
  };
  // Asks the owners of running periods for their time left; true once one was adopted, false after ASK_MS.
  const ask = (): Promise<boolean> =>
    new Promise((resolve) => {
      if (channel === null) return resolve(false);
      const done = (heard: boolean) => {
        waiting.delete(done);
        timer.unsubscribe();
        resolve(heard);
      };
      const timer = inBackground(scheduler).schedule(() => done(false), ASK_MS);
      waiting.add(done);
      // A post that failed closed the channel: nobody will answer.
      if (!channel.post({ kind: 'ask' })) done(false);
    });
  const tell = (message: SyncMessage) => channel?.post(message);
  const dead = deadPosts(locks, base, pageId, scheduler, tell);
  const answer = () => {
    const now = scheduler.now();
    for (const [id, { end }] of owned) if (end > now) tell({ kind: 'period', id, left: end - now, at: wallNow() });
  };

  const effect: Effect<SyncDeps & Parameters<Effect>[2]> = (action$, state$, deps) =>
    new Observable<BillingAction>((out) => {
      // Nudges whose answering fetch is not applied yet: what this tab loads meanwhile is an echo.
      let nudges = 0;
      // A change told while a fetch of this tab's own was in flight: weighed once that fetch lands.
      let heard: Quota | null = null;
      let quota = state$.value.quota;
      const nudge = () => {
        nudges += 1;
        void deps.refetchUsage().then(() => (nudges -= 1));
      };
      refresh = nudge;
      // A tab that already shows what the sender shows has nothing to fetch, so tabs that all fetched
      // (coming back online together) do not fetch again for each other; an old sender sends no hint.
      const changed = (q: Quota | undefined) => {
        if (q === undefined) return nudge();
        if (sameQuota(state$.value.quota, q)) return;
        if (state$.value.fetches > 0) heard = q;
        else nudge();
      };
      channel = openChannel(base, (data) => {
        const message = parseMessage(data);
        if (message?.kind === 'period') adoptTold(message);
        if (message?.kind === 'ask') answer();
        if (message?.kind === 'ended') {
          const end = adopted.get(message.id);
          adopted.delete(message.id);
          // Ends only the period adopted from that charge, not a later one of this tab's.
          if (end !== undefined) out.next({ type: 'freePeriod/ended', end });
        }
        if (message?.kind === 'changed') changed(message.q);
        if (message?.kind === 'sending' || message?.kind === 'sent') dead.heard(message);
      });
      // Held for the client's life: while it is, no other tab sends this one's POSTs again.
      const releasePage = dead.hold();
      const startPeriod = () => {
        const id = `${pageId}.${(periods += 1)}`;
        const at = wallNow();
        // Requested before the consume lock is released, so the next holder's probe finds it. The dated
        // name serves only `query()`, for a tab that joins while this one is frozen.
        const releases =
          locks === null
            ? []
            : [holdLock(locks, periodLock), holdLock(locks, `${base}:free:${at}:${at + FREE_PERIOD_MS}:${id}`)];
        // At its end the period is over for everyone; a dispose only lets go of the locks: the period
        // belongs to the user, and the tabs that adopted it keep it.
        const stop = (over = true) => {
          owned.delete(id);
          timer.unsubscribe();
          releases.forEach((release) => release());
          if (over) tell({ kind: 'ended', id });
        };
        // Nobody awaits the end of a period: in Node its timer keeps nothing alive.
        const timer = inBackground(scheduler).schedule(() => stop(), FREE_PERIOD_MS);
        owned.set(id, { end: scheduler.now() + FREE_PERIOD_MS, stop });
        tell({ kind: 'period', id, left: FREE_PERIOD_MS, at });
      };
      const subscription = learned.subscribe(out);
      subscription.add(
        action$.subscribe((action) => {
          const before = quota;
          quota = state$.value.quota;
          if (action.type === 'consume/charged') startPeriod();
          const landed = action.type === 'usage/loaded' || action.type === 'usage/failed';
          if (landed && heard !== null && state$.value.fetches === 0) {
            const told = heard;
            heard = null;
            if (!sameQuota(quota, told)) nudge();
          }
          // A fetch this tab made because of a nudge tells nobody: the nudge already did.
          const echo = nudges > 0 && action.type === 'usage/loaded';
          const news = action.type === 'consume/charged' || action.type === 'consume/insufficient';
          if (news || (!echo && !sameQuota(before, quota))) tell({ kind: 'changed', ...(quota && { q: quota }) });
          dead.own(action);
        }),
      );
      // Joining: the owners tell their periods' time left; if none does, the locks' names are read.
      void ask().then((heard) => (heard ? undefined : adoptHeld().catch(() => undefined)));
      return () => {
        subscription.unsubscribe();
        [...owned.values()].forEach(({ stop }) => stop(false));
        waiting.forEach((heard) => heard(false));
        channel?.close();
        channel = null;
        releasePage();
        refresh = () => undefined;
      };
    });

  // Under the consume lock: a dead tab's POSTs are sent again first (a charge starts this tab's period);
  // then a period lock held by a period this tab does not know is asked about.
  // The answer to a dead tab's POST, applied as any charge or refusal is (`resent`: no POST of this tab's own
  // opened it): a charge starts this tab's period and tells the others; the quota and balance are fetched again,
  // as a replayed charge answers with its first figures.
  const learn: Learn = async ({ api, stamp }, cut) => {
    await dead.resend(async (id, signal) => {
      let seq = 0;
      const answer = await api.consume(id, { signal, onSend: () => (seq = stamp()) });
      if (answer.kind === 'charged') {
        const { freeRemaining, isCredit } = answer;
        learned.next({ type: 'consume/charged', seq, now: scheduler.now(), freeRemaining, isCredit, resent: true });
      }
      if (answer.kind === 'insufficient') learned.next({ type: 'consume/insufficient', seq, resent: true });
      if (answer.kind !== 'blacklisted') refresh();
    }, cut);
    if ((await lockFree(locks as LocksLike, periodLock)) || runningHere() || (await ask())) return;
    await adoptHeld().catch(() => undefined);
  };
  return {
    effects: [effect as Effect],
    ...(locks === null ? {} : { exclusive: consumeLock(locks, `${base}:consume`, scheduler, setup.timeoutMs, learn) }),
  };
}
