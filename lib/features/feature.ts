import type { SchedulerLike } from 'rxjs';
import type { StoreHooks } from '../store/hooks';

// The store's hook types, named here for the features that build them.
export type { ConsumeJournal, ConsumeLock, HeldLock } from '../store/consume-call';

/**
 * The option each feature goes in, which is also its `kind`: one feature per
 * option, so two of a kind cannot be installed by mistake.
 *
 * @example
 * ```ts
 * const kind: FeatureKind = 'refetch';
 * ```
 */
export type FeatureKind = 'sync' | 'storage' | 'devtools' | 'refetch' | 'events';

/**
 * The name of one of this library's storage keys, locks or channels in a scope:
 * `unified-billing:<scope>` and the parts after it, joined by `:`.
 *
 * @example
 * ```ts
 * scopedName('generator_poster', 'journal'); // 'unified-billing:generator_poster:journal'
 * ```
 */
export const scopedName = (scope: string, ...parts: string[]): string => ['unified-billing', scope, ...parts].join(':');

/** What an opt-in feature learns of the client it is installed in. */
export interface FeatureSetup {
  /** Names storage keys and the tab channel. */
  readonly scope: string;
  readonly scheduler: SchedulerLike;
  readonly timeoutMs: number;
  /**
   * Milliseconds on a clock all tabs and reloads of a browser share: the
   * scheduler's own `wallNow()` when it has one, `Date.now` for the default
   * scheduler, else the given scheduler's `now()`.
   */
  readonly wallNow: () => number;
  /**
   * This client's id, one per page instance, shared by its features (locks and
   * storage entries name it). Made on the first read, from a source that never
   * throws: a client whose features never read it needs no `crypto`.
   */
  readonly pageId: string;
}

/**
 * The one extension protocol: every opt-in feature (`tabSync()`,
 * `reloadSafe()`, `refetchOn()`, `billingEvents()`, `reduxDevtools()`) is a
 * value of this type, given to the `createClient` option its `kind` names. It
 * carries its own code, so a bundle that never calls the factory never
 * contains the feature.
 *
 * @example
 * ```ts
 * const feature: BillingFeature<'sync'> = tabSync();
 * createClient({ baseUrl, appKey: 'poster', sync: feature });
 * ```
 */
export interface BillingFeature<Kind extends FeatureKind = FeatureKind> {
  readonly kind: Kind;
  /**
   * Called once by `createClient` with the client's scope and clock; returns
   * the hooks the client's store calls.
   * @internal
   */
  install(setup: FeatureSetup): StoreHooks;
}
