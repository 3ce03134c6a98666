import { Observable, Subject } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { Quota } from '../core/state';
import type { Effect } from '../engine/effect';
import type { Exclusive, FeatureParts, FeatureSetup } from '../engine/feature';
import { BillingError } from '../errors';
import type { LocksLike } from '../feature-types';
import { inBackground } from '../scheduler';
import { holdLock } from '../web-locks';

const FREE_PERIOD_MS = 30_000;

/**
 * What tabs tell each other; nothing here is ranked. `period`: a charge at wall
 * time `c` started a free period ending at wall time `e`; `ended`: that period
 * ended on its owner's own clock; `changed`: the backend's quota changed, so
 * each tab fetches its own.
 */
type SyncMessage =
  | { readonly kind: 'period'; readonly c: number; readonly e: number }
  | { readonly kind: 'ended'; readonly c: number }
  | { readonly kind: 'changed' };

// Another page of the origin may send anything: only well-formed messages count.
function parse(data: unknown): SyncMessage | null {
  const m = data as Partial<Record<'kind' | 'c' | 'e', unknown>> | null;
  if (typeof m !== 'object' || m === null) return null;
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (m.kind === 'changed') return { kind: 'changed' };
  if (m.kind === 'ended' && finite(m.c)) return { kind: 'ended', c: m.c };
  if (m.kind === 'period' && finite(m.c) && finite(m.e)) return { kind: 'period', c: m.c, e: m.e };
  return null;
}

function sameQuota(a: Quota | null, b: Quota | null): boolean {
  if (a === null || b === null) return a === b;
  return (Object.keys(a) as Array<keyof Quota>).every((key) => a[key] === b[key]);
}

/** What the sync effect needs besides the clock: a usage fetch of this tab's own, shared while in flight. */
export interface SyncDeps {
  readonly refetchUsage: () => void;
}

/**
 * Tab sync for one client: the free period a charge starts (a lock held for
 * its length, plus a message) and a "changed" nudge after which each tab
 * refetches its own usage. Under Web Locks, consumes take one lock per scope,
 * and whoever holds it reads the free periods other tabs hold before deciding.
 */
export function installTabSync(setup: FeatureSetup, locks: LocksLike | null): FeatureParts {
  if (typeof BroadcastChannel !== 'function') return {};
  const { scheduler, wallNow, pageId } = setup;
  const base = `unified-billing:${setup.scope}`;
  const freePrefix = `${base}:free:`;
  // Facts learned outside the action stream (under the consume lock), emitted by the effect.
  const learned = new Subject<BillingAction>();
  // Local ends of periods adopted from other tabs, by the charge's wall time, to end them when their owner says.
  const adopted = new Map<number, number>();

  // Dated by the wall clock, the only one pages share, but never trusted beyond the charge's own 30 s:
  // a clock that reads before the charge stepped back, and the period is then left alone.
  const adopt = (c: number, e: number) => {
    const wall = wallNow();
    if (!(wall >= c)) return;
    const remainingMs = Math.min(e, c + FREE_PERIOD_MS) - wall;
    if (!(remainingMs > 0)) return;
    const now = scheduler.now();
    adopted.set(c, now + remainingMs);
    learned.next({ type: 'freePeriod/adopted', now, remainingMs });
  };
  // A period lock is held by its owner for exactly the period, on the owner's monotonic clock.
  const adoptHeld = async (): Promise<void> => {
    const held = (await locks?.query?.())?.held ?? [];
    for (const { name } of held) {
      if (name?.startsWith(freePrefix) !== true) continue;
      const [c, e, owner] = name.slice(freePrefix.length).split(':');
      if (owner !== pageId) adopt(Number(c), Number(e));
    }
  };

  const effect: Effect<SyncDeps & Parameters<Effect>[2]> = (action$, state$, deps) =>
    new Observable<BillingAction>((out) => {
      const channel = new BroadcastChannel(base);
      // A Node script must end after its last line: the channel alone keeps nothing alive.
      (channel as { unref?: () => void }).unref?.();
      const post = (message: SyncMessage) => {
        try {
          channel.postMessage(message);
        } catch {
          // A closed channel (the page is going away): nothing left to tell.
        }
      };
      const owned = new Set<(over?: boolean) => void>();
      let nudged = false;
      let quota = state$.value.quota;
      channel.onmessage = ({ data }: MessageEvent) => {
        const message = parse(data);
        if (message?.kind === 'period') adopt(message.c, message.e);
        if (message?.kind === 'ended') {
          const end = adopted.get(message.c);
          adopted.delete(message.c);
          // Ends only the period adopted from that charge, not a later one of this tab's.
          if (end !== undefined) out.next({ type: 'freePeriod/ended', end });
        }
        if (message?.kind === 'changed') {
          nudged = true;
          deps.refetchUsage();
        }
      };
      const startPeriod = () => {
        const c = wallNow();
        const e = c + FREE_PERIOD_MS;
        // Requested before the consume lock is released, so the next holder's query sees it.
        const release = locks === null ? () => undefined : holdLock(locks, `${freePrefix}${c}:${e}:${pageId}`);
        // At its end the period is over for everyone; a dispose only lets go of the lock: the period
        // belongs to the user, and the tabs that adopted it keep it.
        const end = (over = true) => {
          owned.delete(end);
          timer.unsubscribe();
          release();
          if (over) post({ kind: 'ended', c });
        };
        // Nobody awaits the end of a period: in Node its timer keeps nothing alive.
        const timer = inBackground(scheduler).schedule(() => end(), FREE_PERIOD_MS);
        owned.add(end);
        post({ kind: 'period', c, e });
      };
      const subscription = learned.subscribe(out);
      subscription.add(
        action$.subscribe((action) => {
          const before = quota;
          quota = state$.value.quota;
          if (action.type === 'consume/charged') startPeriod();
          // A fetch this tab made because of a nudge tells nobody: the nudge already did.
          const echo = nudged && action.type === 'usage/loaded';
          if (action.type === 'usage/loaded') nudged = false;
          const news = action.type === 'consume/charged' || action.type === 'consume/insufficient';
          if (news || (!echo && !sameQuota(before, quota))) post({ kind: 'changed' });
        }),
      );
      void adoptHeld().catch(() => undefined);
      return () => {
        subscription.unsubscribe();
        channel.onmessage = null;
        [...owned].forEach((end) => end(false));
        channel.close();
      };
    });

  const exclusive: Exclusive | undefined =
    locks === null
      ? undefined
      : (signal) =>
          new Promise((resolve, reject) => {
            const aborted = () => {
              release();
              reject(new BillingError('aborted', 'consume() was aborted while waiting for another tab'));
            };
            const release = holdLock(locks, `${base}:consume`, signal, () => {
              void adoptHeld()
                .catch(() => undefined)
                .then(() => {
                  signal.removeEventListener('abort', aborted);
                  if (signal.aborted) aborted();
                  else resolve(release);
                });
            });
            if (signal.aborted) aborted();
            else signal.addEventListener('abort', aborted, { once: true });
          });
  return { effects: [effect as Effect], ...(exclusive === undefined ? {} : { exclusive }) };
}
