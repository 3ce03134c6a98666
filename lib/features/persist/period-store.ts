import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { FREE_PERIOD_MS } from '../../core/state';
import type { Effect } from '../../store/effect';
import { inBackground } from '../../shared/scheduler';
import type { FeatureSetup } from '../feature';
import { isReload, listen } from '../page-life';
import type { SafeStorage } from './safe-storage';

const BEAT_MS = 1_000;
// Hygiene for what dead pages left in a shared storage; beyond the hour-long steps a record must survive.
const FORGET_MS = 2 * 60 * 60 * 1000;

/**
 * One page's free period as it last wrote it: `l` ms were left at its monotonic `m` on clock `k`
 * (one per document), wall time `w`; `h` when written as the page was hidden (`pagehide`).
 */
type Period = { readonly l: number; readonly w: number; readonly m?: number; readonly k?: string; readonly h?: 1 };

// Where and when a page reads the stored periods; `fresh`: a reload of this tab's own storage, so a period
// written at `pagehide` is at most `now` old.
type Reader = { readonly wall: number; readonly now: number; readonly clock: string; readonly fresh: boolean };

function readPeriods(storage: SafeStorage, key: string): Record<string, Period> {
  const parsed = storage.readJson(key, {}) as Record<string, Partial<Period>>;
  // A record needs `l` and `w`; a junk `m` dates nothing (its age is NaN), so nothing is left of it.
  const valid = Object.entries(parsed).filter(([, p]) => Number.isFinite(p?.l) && Number.isFinite(p?.w));
  return Object.fromEntries(valid) as Record<string, Period>;
}

/**
 * What is left of a stored period: never more than its page last measured, nor more than 30 s, less
 * its age on the most trustworthy clock there is. The page's own monotonic clock when the same document
 * wrote it (exact, whatever the wall clock did); this page's age when its predecessor in the tab wrote it
 * while going away, which was after this page's navigation started (short by the navigation's length,
 * never long); else the wall clock, which a step back since the write makes read before it: undatable,
 * so nothing is left.
 */
function leftOf(period: Period, at: Reader): number {
  let age = at.wall - period.w;
  if (period.k === at.clock && period.m !== undefined) age = at.now - period.m;
  else if (period.h === 1 && at.fresh) age = at.now;
  return age >= 0 ? Math.min(period.l, FREE_PERIOD_MS) - age : 0;
}

// One id per monotonic clock (per document for the default scheduler): records of the same clock are dated exactly.
const clocks = new WeakMap<SchedulerLike, string>();

/**
 * Keeps this page's free period (its own charge's, or one it restored) under its page id, as the
 * time left measured on the page's monotonic clock: refreshed once a second while it runs, written
 * last at `pagehide` and on dispose. At start, restores the longest one left (see `leftOf`).
 */
export function periodStore(storage: SafeStorage, key: string, setup: FeatureSetup, perTab: boolean): Effect {
  const { wallNow, pageId } = setup;
  const update = (change: (periods: Record<string, Period>) => void) => {
    const periods = readPeriods(storage, key);
    const wall = wallNow();
    for (const [page, p] of Object.entries(periods)) if (wall - p.w > FORGET_MS) delete periods[page];
    change(periods);
    storage.writeJson(key, periods);
  };
  return (action$, state$, { scheduler }) =>
    new Observable((out) => {
      const clock = clocks.get(scheduler) ?? pageId;
      clocks.set(scheduler, clock);
      const at: Reader = { wall: wallNow(), now: scheduler.now(), clock, fresh: perTab && isReload() };
      const periods = readPeriods(storage, key);
      const left = Math.max(0, ...Object.values(periods).map((p) => leftOf(p, at)));
      // A tab's earlier documents are gone: what they left is this page's now (carried on below), and
      // no later page of the tab may date it again. In a shared storage, only what nothing dates goes.
      const gone = Object.entries(periods).filter(([, p]) => (perTab ? p.k !== clock : leftOf(p, at) <= 0));
      if (gone.length > 0) update((all) => gone.forEach(([page]) => delete all[page]));
      let endsAt: number | null = null;
      let hidden = false;
      let beat: Subscription | null = null;
      const save = () => {
        if (endsAt === null) return 0;
        const now = scheduler.now();
        const l = endsAt - now;
        update((all) => {
          if (l > 0) all[pageId] = { l, w: wallNow(), m: now, k: clock, ...(hidden ? { h: 1 } : {}) };
          else delete all[pageId];
        });
        return l;
      };
      const run = (remainingMs: number) => {
        endsAt = scheduler.now() + remainingMs;
        beat?.unsubscribe();
        save();
        beat = inBackground(scheduler).schedule(function () {
          const l = save();
          if (l > 0) this.schedule(undefined, Math.min(BEAT_MS, l));
        }, BEAT_MS);
      };
      if (left > 0) {
        out.next({ type: 'freePeriod/adopted', now: at.now, remainingMs: left });
        run(left);
      }
      const subscription = action$.subscribe((action) => {
        // The end the state holds (the store's one timer ends it): this feature re-derives nothing.
        const end = state$.value.freePeriodEnd;
        if (action.type === 'consume/charged' && end !== null) run(end - scheduler.now());
      });
      // At `pagehide`, and at `pageshow` (a page back from the back/forward cache).
      const pageHidden = (isHidden: boolean) => () => {
        hidden = isHidden;
        save();
      };
      subscription.add(listen(globalThis, 'pagehide', pageHidden(true)));
      subscription.add(listen(globalThis, 'pageshow', pageHidden(false)));
      return () => {
        subscription.unsubscribe();
        beat?.unsubscribe();
        // The last word: the time left now, on this page's clock (a later client of this document
        // dates it exactly); written going away if the page was hidden first.
        save();
      };
    });
}
