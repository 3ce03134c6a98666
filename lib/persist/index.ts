import type { ConsumeJournal, EnginePlugin } from '../engine/extensions';
import type { StorageLike } from '../types';
import { freePeriodStore } from './free-period-store';
import { storageJournal } from './journal';
import { SafeStorage } from './safe-storage';

/** What the `storage` option adds to the engine. */
export interface Persistence {
  readonly plugin: EnginePlugin;
  readonly journal: ConsumeJournal;
}

/** Reload safety over the given storage, under keys named by `scope`. */
export function createPersistence(storage: StorageLike, scope: string, wallNow: () => number = Date.now): Persistence {
  const safe = new SafeStorage(storage);
  const prefix = `unified-billing:${scope}`;
  return {
    plugin: freePeriodStore(safe, `${prefix}:free-period-end`, wallNow),
    journal: storageJournal(safe, `${prefix}:pending-consumes`, wallNow),
  };
}
