import { defer, map, type Observable } from 'rxjs';
import type { ConsumeJournal } from '../engine/feature';
import type { PageLiveness } from './page-liveness';
import type { SafeStorage } from './safe-storage';
import { MAX_EXTERNAL_ID_LENGTH } from '../wire';

/** Entries older than this are dropped unreplayed: the user has long moved on. */
export const JOURNAL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface Entry {
  readonly id: string;
  /** Wall-clock milliseconds when the POST was sent. */
  readonly at: number;
  /** The page instance (client) that sent it; absent in entries of older versions, which count as orphaned. */
  readonly owner?: string;
}

function isEntry(value: unknown): value is Entry {
  const entry = value as Partial<Entry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.id === 'string' &&
    entry.id.length > 0 &&
    entry.id.length <= MAX_EXTERNAL_ID_LENGTH &&
    typeof entry.at === 'number' &&
    Number.isFinite(entry.at) &&
    (entry.owner === undefined || typeof entry.owner === 'string')
  );
}

/**
 * The consumes sent but not answered, as a JSON array under one key; anything
 * unreadable counts as empty. Each entry names its owner, so a tab that
 * starts with a copy of another's storage (`window.open`, "Duplicate tab")
 * leaves the consumes of a live owner to that owner: it drops its copy at once
 * when the storage is the tab's own (`perTab`), else once the owner is done.
 */
export function storageJournal(
  storage: SafeStorage,
  key: string,
  wallNow: () => number,
  liveness: Omit<PageLiveness, 'effect'>,
  perTab = false,
): ConsumeJournal {
  const read = (): Entry[] => {
    try {
      const parsed: unknown = JSON.parse(storage.get(key) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
    } catch {
      return [];
    }
  };
  const write = (entries: readonly Entry[]) => {
    if (entries.length === 0) storage.remove(key);
    else storage.set(key, JSON.stringify(entries));
  };
  const drop = (gone: (entry: Entry) => boolean) => {
    const entries = read();
    if (entries.some(gone)) write(entries.filter((entry) => !gone(entry)));
  };
  const fresh = () => {
    const now = wallNow();
    return read().filter((entry) => now - entry.at < JOURNAL_MAX_AGE_MS);
  };
  // Another page finished a consume of its own: a copy of its entry here is stale.
  liveness.onSettled((owner, id) => drop((entry) => entry.id === id && entry.owner === owner));
  const pending = (): Observable<readonly string[]> =>
    defer(() => {
      const asked = new Set(fresh().flatMap(({ owner }) => (owner === undefined ? [] : [owner])));
      asked.delete(liveness.id);
      return liveness.alive(asked).pipe(
        map((live) => {
          // Read again after the wait: an owner may have finished meanwhile, and an owner
          // not asked about wrote its entry after this client started, so it is alive.
          const entries = fresh();
          const stale = (entry: Entry) => {
            const inFlight = entry.owner === undefined ? undefined : live.get(entry.owner);
            return inFlight !== undefined && inFlight !== null && !inFlight.has(entry.id);
          };
          // In a storage of this tab alone (sessionStorage), another live page's entry is a copy: that page
          // finishes it and its own storage keeps it, so this copy is dropped, never to be replayed here
          // (after, perhaps, its caller was told it failed). A shared storage (localStorage) keeps it.
          const leftToOwner = (entry: Entry) =>
            perTab && entry.owner !== undefined && entry.owner !== liveness.id && live.has(entry.owner);
          drop((entry) => stale(entry) || leftToOwner(entry));
          const orphaned = entries.filter(({ owner }) => owner === undefined || (asked.has(owner) && !live.has(owner)));
          return [...new Set(orphaned.map((entry) => entry.id))];
        }),
      );
    });
  return {
    add: (id) => {
      liveness.sending(id);
      write([...read().filter((entry) => entry.id !== id), { id, at: wallNow(), owner: liveness.id }]);
    },
    remove: (id) => {
      drop((entry) => entry.id === id);
      liveness.settled(id);
    },
    pending,
  };
}
