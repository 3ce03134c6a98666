import { Observable, type Subscription } from 'rxjs';
import type { Effect } from '../engine/effect';
import { inBackground } from '../scheduler';
import type { FeatureSetup } from '../engine/feature';
import type { SafeStorage } from './safe-storage';

const FREE_PERIOD_MS = 30_000;
const BEAT_MS = 1_000;
const FORGET_MS = 60 * 60 * 1000;

/** One page's free period: charged at wall time `c`; at wall time `w` (its last beat) `l` ms were left. */
interface Period {
  readonly c: number;
  readonly w: number;
  readonly l: number;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function readPeriods(storage: SafeStorage, key: string): Record<string, Period> {
  try {
    const parsed = JSON.parse(storage.get(key) ?? '{}') as Record<string, Partial<Period>> | null;
    const periods: Record<string, Period> = {};
    for (const [page, p] of Object.entries(parsed ?? {})) {
      if (finite(p?.c) && finite(p.w) && finite(p.l)) periods[page] = { c: p.c, w: p.w, l: p.l };
    }
    return periods;
  } catch {
    return {};
  }
}

/**
 * What is left of a stored period at wall time `wall`. Only the wall clock
 * survives a reload, so a period is never trusted beyond the monotonic time
 * its page last saw left (`l`, at its beat `w`), nor beyond 30 s after the
 * charge; a clock that reads before the beat stepped back, and ends it.
 */
function leftOf(period: Period, wall: number): number {
  if (wall < period.w || wall < period.c) return 0;
  return Math.min(period.l - (wall - period.w), period.c + FREE_PERIOD_MS - wall, FREE_PERIOD_MS);
}

/**
 * Keeps each page's free period under its own page id (pages sharing a
 * storage never erase each other's), refreshed once a second while it runs,
 * and restores at start the longest one left.
 */
export function periodStore(storage: SafeStorage, key: string, setup: FeatureSetup): Effect {
  const { wallNow, pageId } = setup;
  const update = (change: (periods: Record<string, Period>) => void) => {
    const periods = readPeriods(storage, key);
    const wall = wallNow();
    for (const [page, p] of Object.entries(periods)) if (wall - p.w > FORGET_MS) delete periods[page];
    change(periods);
    if (Object.keys(periods).length === 0) storage.remove(key);
    else storage.set(key, JSON.stringify(periods));
  };
  return (action$, _state$, { scheduler }) =>
    new Observable((out) => {
      const wall = wallNow();
      const periods = readPeriods(storage, key);
      const left = Math.max(0, ...Object.values(periods).map((p) => leftOf(p, wall)));
      // A period the clock now reads before can never be dated again: gone, so no later page trusts it.
      const undatable = Object.keys(periods).filter((page) => wall < (periods[page] as Period).w);
      if (undatable.length > 0) update((all) => undatable.forEach((page) => delete all[page]));
      if (left > 0) out.next({ type: 'freePeriod/adopted', now: scheduler.now(), remainingMs: left });
      let beat: Subscription | null = null;
      const subscription = action$.subscribe((action) => {
        if (action.type !== 'consume/charged') return;
        const c = wallNow();
        const endsAt = scheduler.now() + FREE_PERIOD_MS;
        beat?.unsubscribe();
        const save = () => {
          const l = endsAt - scheduler.now();
          update((periods) => {
            if (l > 0) periods[pageId] = { c, w: wallNow(), l };
            else delete periods[pageId];
          });
          return l;
        };
        save();
        beat = inBackground(scheduler).schedule(function () {
          const l = save();
          if (l > 0) this.schedule(undefined, Math.min(BEAT_MS, l));
        }, BEAT_MS);
      });
      return () => {
        subscription.unsubscribe();
        beat?.unsubscribe();
      };
    });
}
