import { reloadSafe, tabSync, type ClientOptions } from '../../lib';

/**
 * What the page's query string asks for:
 * - `?sync=broadcast`: `tabSync()`, the free period and usage shared with other tabs;
 * - `?storage=session` (or `local`): `reloadSafe(sessionStorage)` (or `localStorage`),
 *   so a reload replays an unanswered consume and keeps the free period;
 * - `?user=<token>`: the demo user signed in at load (the first one otherwise).
 *
 * @example
 * ```ts
 * // http://127.0.0.1:8787/?storage=session&user=demo-credits
 * const options = readPageOptions(window.location.search);
 * options.storageName; // 'session'
 * ```
 */
export interface PageOptions {
  readonly sync: boolean;
  readonly storageName: 'session' | 'local' | null;
  readonly user: string | null;
}

/** Reads {@link PageOptions} from a query string; anything unknown is ignored. */
export function readPageOptions(search: string): PageOptions {
  const params = new URLSearchParams(search);
  const storage = params.get('storage');
  return {
    sync: params.get('sync') === 'broadcast',
    storageName: storage === 'session' || storage === 'local' ? storage : null,
    user: params.get('user'),
  };
}

/**
 * The `sync` and `storage` options of `createClient` the page options ask for.
 *
 * @example
 * ```ts
 * createClient({ baseUrl, appKey, ...clientFeatures(readPageOptions('?storage=session')) });
 * ```
 */
export function clientFeatures(options: PageOptions): Pick<ClientOptions, 'sync' | 'storage'> {
  const storage = { session: () => window.sessionStorage, local: () => window.localStorage };
  return {
    ...(options.sync ? { sync: tabSync() } : {}),
    ...(options.storageName !== null ? { storage: reloadSafe(storage[options.storageName]()) } : {}),
  };
}
