import { invalid } from '../../shared/errors';
import { scopedName, type BillingFeature } from '../feature';
import type { ReloadSafeOptions, StorageLike } from '../../shared/feature-types';
import { locksOf, recoveryHooks } from '../web-locks';
import { pageJournal } from './journal';
import { periodStore } from './period-store';
import { SafeStorage } from './safe-storage';

/**
 * Reload safety for the `storage` option: the free period survives a reload
 * (kept per page, so pages sharing a storage never erase each other's), and,
 * where Web Locks exist, a consume whose page went away before its caller
 * heard the outcome is replayed at the next start with the same
 * `external_id` (see `recovered$`). Storage that throws degrades to memory
 * with one warning.
 *
 * @example
 * ```ts
 * import { createClient, reloadSafe } from 'unified-billing';
 *
 * const client = createClient({ baseUrl, appKey: 'poster', storage: reloadSafe(sessionStorage) });
 * ```
 */
export function reloadSafe(storage: StorageLike, options: ReloadSafeOptions = {}): BillingFeature<'storage'> {
  const candidate = storage as Partial<Record<keyof StorageLike, unknown>> | null;
  if (!(['getItem', 'setItem', 'removeItem'] as const).every((m) => typeof candidate?.[m] === 'function')) {
    invalid(__DEV__ ? 'reloadSafe() needs a storage with getItem, setItem and removeItem' : 'invalid storage');
  }
  if (options?.perTab !== undefined && typeof options.perTab !== 'boolean') {
    invalid(__DEV__ ? 'reloadSafe() perTab must be a boolean' : 'invalid perTab');
  }
  const locks = locksOf(options?.locks, 'reloadSafe()');
  return {
    kind: 'storage',
    install: (setup) => {
      // sessionStorage belongs to one tab (a duplicate gets a copy); localStorage is shared by all.
      const perTab = options?.perTab ?? storage === (globalThis as { sessionStorage?: unknown }).sessionStorage;
      const safe = new SafeStorage(storage);
      const periods = periodStore(safe, scopedName(setup.scope, 'periods'), setup, perTab);
      if (locks === null) return { effects: [periods] };
      return { effects: [periods], journal: pageJournal(safe, setup, locks, perTab), ...recoveryHooks(locks, setup) };
    },
  };
}
