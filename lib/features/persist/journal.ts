import { scopedName, type ConsumeJournal, type FeatureSetup } from '../feature';
import type { LocksLike } from '../../shared/feature-types';
import { gonePages } from '../web-locks';
import { isExternalId } from '../../shared/wire';
import type { SafeStorage } from './safe-storage';

/** Entries older than this are dropped unreplayed: the user has long moved on. */
const JOURNAL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** A consume sent and not yet told to its caller: its id, the page that sent it, and when (wall clock). */
type Entry = { readonly id: string; readonly owner: string; readonly at: number };

const isEntry = (e: Partial<Entry> | null): e is Entry =>
  isExternalId(e?.id) && typeof e.owner === 'string' && Number.isFinite(e.at);

/**
 * The reload journal. Its rules:
 * 1. An entry is written before its POST and removed once the caller has an outcome, whatever it is.
 * 2. Each page holds its page lock for its life (the store holds it): a free lock is a page that is gone.
 * 3. A page replays only entries of a page that is gone, so their caller never heard an outcome (the store
 *    drops those a living page reported):
 *    in a tab's own storage, only the previous page's (named at start, before anything else);
 *    in a shared storage, any gone page's, claimed under one lock so one page replays each.
 * 4. A tab's storage copied from a live tab (a duplicate) drops that tab's entries, never replays them.
 * 5. Without Web Locks nothing proves a page gone: there is no journal (reloadSafe makes none).
 */
export function pageJournal(
  storage: SafeStorage,
  { scope, pageId, wallNow }: FeatureSetup,
  locks: LocksLike,
  perTab: boolean,
): ConsumeJournal {
  const key = scopedName(scope, 'journal');
  const read = (): Entry[] => {
    const parsed = storage.readJson(key, []);
    const now = wallNow();
    return Array.isArray(parsed) ? parsed.filter((e) => isEntry(e) && Math.abs(now - e.at) < JOURNAL_MAX_AGE_MS) : [];
  };
  const write = (entries: readonly Entry[]) => storage.writeJson(key, entries);
  // Keeps the entries `kept` says, written only if that drops any.
  const keep = (kept: (e: Entry) => boolean) => {
    const entries = read();
    if (!entries.every(kept)) write(entries.filter(kept));
  };
  // A tab's own storage names the page that last started on it, at once: what an older page left was
  // that page's successor's to prove, and a later copy of this storage must not take this page's entries.
  const pageKey = scopedName(scope, 'page');
  const previous = perTab ? storage.get(pageKey) : null;
  if (perTab) {
    storage.set(pageKey, pageId);
    keep((e) => e.owner === previous);
  }
  // In a tab's own storage, whether the page before this one is gone, probed at once: a duplicate's opener is
  // alive now, and its entries stay its own even if it goes before the claim (made at start, store/recovery.ts).
  const previousGone = perTab ? gonePages(locks, scope, previous === null ? [] : [previous]) : null;
  // Claimed under the journal's lock, so one page replays each. `signal` is the wait's: once it aborts (the
  // client was disposed) nothing is claimed, and the lock, if not yet granted, is no longer asked for.
  const pending = (signal: AbortSignal): Promise<string[]> =>
    locks.request(key, { signal }, async () => {
      const others = () => read().flatMap((e) => (e.owner === pageId ? [] : [e.owner]));
      const gone = (await previousGone) ?? (await gonePages(locks, scope, others()));
      if (signal.aborted) return [];
      // In a tab's own storage, what a live page left is a duplicated tab's: that tab's to finish.
      const kept = read().filter((e) => !perTab || e.owner === pageId || gone.has(e.owner));
      const mine = kept.filter((e) => e.owner !== pageId && gone.has(e.owner));
      write(kept.map((e) => (mine.includes(e) ? { ...e, owner: pageId } : e)));
      return [...new Set(mine.map((e) => e.id))];
    });
  return {
    add: (id) => {
      // Named again with each entry: a storage that refused the write at start has lost the name.
      if (perTab) storage.set(pageKey, pageId);
      write([...read().filter((e) => e.id !== id), { id, owner: pageId, at: wallNow() }]);
    },
    remove: (id) => keep((e) => e.id !== id),
    pending,
  };
}
