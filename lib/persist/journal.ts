import type { ConsumeJournal } from '../engine/extensions';
import type { SafeStorage } from './safe-storage';

/** Entries older than this are dropped unreplayed: the user has long moved on. */
export const JOURNAL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface Entry {
  readonly id: string;
  /** Wall-clock milliseconds when the POST was sent. */
  readonly at: number;
}

function isEntry(value: unknown): value is Entry {
  const entry = value as Partial<Entry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.id === 'string' &&
    entry.id.length > 0 &&
    entry.id.length <= 255 &&
    typeof entry.at === 'number' &&
    Number.isFinite(entry.at)
  );
}

/** The consumes sent but not answered, as a JSON array under one key; anything unreadable counts as empty. */
export function storageJournal(storage: SafeStorage, key: string, wallNow: () => number): ConsumeJournal {
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
  return {
    add: (id) => write([...read().filter((entry) => entry.id !== id), { id, at: wallNow() }]),
    remove: (id) => {
      const entries = read();
      if (entries.some((entry) => entry.id === id)) write(entries.filter((entry) => entry.id !== id));
    },
    pending: () => {
      const now = wallNow();
      const fresh = read().filter((entry) => now - entry.at < JOURNAL_MAX_AGE_MS);
      return [...new Set(fresh.map((entry) => entry.id))];
    },
  };
}
