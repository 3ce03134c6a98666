import { refetchOn, reloadSafe, tabSync, type ClientOptions, type RefetchOptions } from '../../lib';
import type { Subscribable } from 'rxjs';

/**
 * What the page's query string asks for:
 * - `?sync=broadcast`: `tabSync()`, the free period and usage shared with other tabs;
 * - `?storage=session` (or `local`): `reloadSafe(sessionStorage)` (or `localStorage`),
 *   so a reload replays an unanswered consume and keeps the free period;
 * - `?user=<token>`: the demo user signed in at load (the first one otherwise);
 * - `?interval=<ms>`: `refetchOn()`'s `intervalMs` (an integer, at least 1000) beside focus and online;
 * - `?refetch=off`: no `refetch` option at all (focus and online refetch by default);
 * - `?live=off`: no `when` (by default the client refetches on each change the backend pushes).
 *
 * @example
 * ```ts
 * // http://127.0.0.1:8787/?storage=session&user=demo-credits&interval=1000
 * const options = readPageOptions(window.location.search);
 * options.storageName; // 'session'
 * options.refetch; // { focus: true, online: true, intervalMs: 1000 }
 * options.live; // true
 * ```
 */
export interface PageOptions {
  readonly sync: boolean;
  readonly storageName: 'session' | 'local' | null;
  readonly user: string | null;
  /** What the client's `refetchOn()` is given; `null` for no `refetch` option (`?refetch=off`). */
  readonly refetch: RefetchOptions | null;
  /** Whether `refetchOn()` also gets the backend's pushed changes as `when` (`?live=off` turns it off). */
  readonly live: boolean;
}

// Anything but a whole number of at least 1000 ms is ignored, as unknown parameters are:
// the page must always start, and the library would refuse it.
function readInterval(value: string | null): number | null {
  const ms = Number(value);
  return value !== null && Number.isInteger(ms) && ms >= 1000 ? ms : null;
}

/** Reads {@link PageOptions} from a query string; anything unknown is ignored. */
export function readPageOptions(search: string): PageOptions {
  const params = new URLSearchParams(search);
  const storage = params.get('storage');
  const intervalMs = readInterval(params.get('interval'));
  return {
    sync: params.get('sync') === 'broadcast',
    storageName: storage === 'session' || storage === 'local' ? storage : null,
    user: params.get('user'),
    refetch:
      params.get('refetch') === 'off'
        ? null
        : { focus: true, online: true, ...(intervalMs !== null ? { intervalMs } : {}) },
    live: params.get('live') !== 'off',
  };
}

/**
 * The `sync`, `storage` and `refetch` options of `createClient` the page options ask for; `changes`
 * is the user's pushed changes, given to `refetchOn()` as `when` unless `?live=off`.
 *
 * @example
 * ```ts
 * createClient({ baseUrl, appKey, ...clientFeatures(readPageOptions('?storage=session'), liveChanges(token)) });
 * ```
 */
export function clientFeatures(
  options: PageOptions,
  changes?: Subscribable<unknown>,
): Pick<ClientOptions, 'sync' | 'storage' | 'refetch'> {
  const when = options.live && changes !== undefined ? { when: changes } : {};
  const storage = { session: () => window.sessionStorage, local: () => window.localStorage };
  return {
    ...(options.sync ? { sync: tabSync() } : {}),
    ...(options.storageName !== null ? { storage: reloadSafe(storage[options.storageName]()) } : {}),
    ...(options.refetch !== null ? { refetch: refetchOn({ ...options.refetch, ...when }) } : {}),
  };
}
