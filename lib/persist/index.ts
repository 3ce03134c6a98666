import { BillingError } from '../errors';
import type { Effect } from '../engine/effect';
import type { BillingFeature, ConsumeJournal, FeatureSetup } from '../engine/feature';
import type { LocksLike, ReloadSafeOptions, StorageLike } from '../feature-types';
import { freePeriodStore } from './free-period-store';
import { storageJournal } from './journal';
import { pageLiveness } from './page-liveness';
import { Replays } from './replays';
import { SafeStorage } from './safe-storage';

/** What the `storage` option adds to the engine. */
export interface Persistence {
  readonly effects: readonly Effect[];
  readonly journal: ConsumeJournal;
}

function defaultLocks(): LocksLike | null {
  const candidate = (globalThis as { navigator?: { locks?: LocksLike } }).navigator?.locks;
  return typeof candidate?.request === 'function' ? candidate : null;
}

/** Reload safety over the given storage, under keys named by `scope`, on the clocks of `setup`. */
export function createPersistence(
  storage: StorageLike,
  setup: Pick<FeatureSetup, 'scope' | 'scheduler' | 'wallNow'>,
  locks: LocksLike | null,
  perTab = false,
): Persistence {
  const safe = new SafeStorage(storage);
  const prefix = `unified-billing:${setup.scope}`;
  const liveness = pageLiveness(setup.scope, locks, setup.scheduler);
  return {
    effects: [freePeriodStore(safe, `${prefix}:free-period-end`, setup.wallNow), liveness.effect],
    journal: storageJournal(safe, `${prefix}:pending-consumes`, setup.wallNow, liveness, perTab),
  };
}

/**
 * Reload safety for the `storage` option: the free-period end and every
 * consume whose answer has not arrived are kept in `storage`; at the next
 * start such a consume is replayed with the same `external_id` (see
 * `recovered$`), unless the page that sent it is still alive (a tab opened
 * with a copy of its `sessionStorage`). Storage that throws degrades to
 * memory with one warning.
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
  const methods = ['getItem', 'setItem', 'removeItem'] as const;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    !methods.every((m) => typeof candidate[m] === 'function')
  ) {
    throw new BillingError('invalid_argument', 'reloadSafe() needs a storage with getItem, setItem and removeItem');
  }
  if (options?.perTab !== undefined && typeof options.perTab !== 'boolean') {
    throw new BillingError('invalid_argument', 'reloadSafe() perTab must be a boolean');
  }
  const locks = options?.locks;
  if (locks !== undefined && locks !== null && typeof locks.request !== 'function') {
    throw new BillingError('invalid_argument', 'reloadSafe() locks must be a lock manager (navigator.locks) or null');
  }
  return {
    kind: 'storage',
    install: (setup) => {
      // sessionStorage belongs to one tab: what a copy of it holds of a live page is that page's.
      const perTab = options?.perTab ?? storage === (globalThis as { sessionStorage?: unknown }).sessionStorage;
      const persistence = createPersistence(storage, setup, locks === undefined ? defaultLocks() : locks, perTab);
      return { effects: persistence.effects, journal: persistence.journal, recovery: new Replays(persistence.journal) };
    },
  };
}
