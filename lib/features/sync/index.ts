import type { BillingFeature } from '../feature';
import type { SyncOptions } from '../../shared/feature-types';
import { locksOf } from '../web-locks';
import { installTabSync } from './tab-sync';

/**
 * Tab sync for the `sync` option. Tabs of one origin share the free period a
 * charge starts (its time left, as its tab counts it, told by that tab) and
 * tell each other when the quota changed; each tab then fetches its own
 * usage, so no tab's state is ranked against another's. Where Web Locks
 * exist, consumes of one scope run one at a time across tabs (a click in
 * every tab at once is one charge), each wait for that lock bounded by
 * `timeoutMs`; a tab closed while its POST was out has that POST sent again
 * (same `external_id`) by the next consume of another tab, which reports it
 * on its `recovered$`. Without Web Locks, or without a working
 * `BroadcastChannel` (one warning), each tab bills on its own
 * ({@link https://cdn.jsdelivr.net/npm/unified-billing@0.2.0/docs/recipes/cross-tab.md | docs/recipes/cross-tab.md}).
 *
 * @example
 * ```ts
 * import { createClient, tabSync } from 'unified-billing';
 *
 * const client = createClient({ baseUrl, appKey: 'poster', sync: tabSync() });
 * ```
 */
export function tabSync(options: SyncOptions = {}): BillingFeature<'sync'> {
  const locks = locksOf(options?.locks, 'tabSync()');
  return { kind: 'sync', install: (setup) => installTabSync(setup, locks) };
}
