import { BillingError } from '../errors';
import type { BillingFeature, ConsumeJournal, EnginePlugin } from '../engine/extensions';
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

/**
 * Reload safety for the `storage` option: the free-period end and every
 * consume whose answer has not arrived are kept in `storage`; at the next
 * start such a consume is replayed with the same `external_id` (see
 * `recovered$`). Storage that throws degrades to memory with one warning.
 *
 * @example
 * ```ts
 * import { createClient, reloadSafe } from 'unified-billing';
 *
 * const client = createClient({ baseUrl, appKey: 'poster', storage: reloadSafe(sessionStorage) });
 * ```
 */
export function reloadSafe(storage: StorageLike): BillingFeature<'storage'> {
  const candidate = storage as Partial<Record<keyof StorageLike, unknown>> | null;
  const methods = ['getItem', 'setItem', 'removeItem'] as const;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    !methods.every((m) => typeof candidate[m] === 'function')
  ) {
    throw new BillingError('invalid_argument', 'reloadSafe() needs a storage with getItem, setItem and removeItem');
  }
  return {
    kind: 'storage',
    install: ({ scope }) => {
      const persistence = createPersistence(storage, scope);
      return { plugins: [persistence.plugin], journal: persistence.journal };
    },
  };
}
