import type { ConsumeJournal } from './feature';

/** The journal as the engine uses it: what this client wrote, and clearing only that. */
export interface JournalRecord {
  /** Records a consume before its POST goes out; absent without a journal. */
  readonly add: ((externalId: string) => void) | undefined;
  /** The caller has the outcome: nothing is left to replay. */
  forget(externalId: string | undefined): void;
}

/**
 * Only what this client journaled and has not yet reported is cleared from
 * storage: another page's entries (a shared `localStorage`) are not ours.
 */
export function journalRecord(journal: ConsumeJournal | undefined): JournalRecord {
  const journaled = new Set<string>();
  return {
    add:
      journal &&
      ((externalId) => {
        journaled.add(externalId);
        journal.add(externalId);
      }),
    forget: (externalId) => {
      if (externalId !== undefined && journaled.delete(externalId)) journal?.remove(externalId);
    },
  };
}
