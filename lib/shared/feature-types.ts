// Types of the opt-in features (reload safety, tab sync); split from types.ts to keep files small.
import type { ConsumeOutcome } from './types';

/**
 * The storage the `storage` option takes: `localStorage`, `sessionStorage`, or
 * anything with the same three methods. Any of them may throw; the client then
 * keeps its state in memory for the rest of the page.
 *
 * @example
 * ```ts
 * const storage: StorageLike = window.sessionStorage;
 * ```
 */
export interface StorageLike {
  /** The stored string, `null` when absent. */
  getItem(key: string): string | null;
  /** Stores a string; may throw (quota full, private mode). */
  setItem(key: string, value: string): void;
  /** Forgets a key; absent keys are fine. */
  removeItem(key: string): void;
}

/**
 * The part of the Web Locks API (`navigator.locks`) the features use.
 *
 * @example
 * ```ts
 * const locks: LocksLike = navigator.locks;
 * ```
 */
export interface LocksLike {
  /**
   * Runs `callback` while holding the lock `name` (exclusive); the lock is released when its promise
   * settles. With `ifAvailable`, the callback gets `null` at once when the lock is held elsewhere.
   */
  request<T>(
    name: string,
    options: { signal?: AbortSignal; ifAvailable?: boolean; mode?: 'exclusive' | 'shared' },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

/**
 * Options of `tabSync()`.
 *
 * @example
 * ```ts
 * // Each tab bills on its own even where Web Locks exist; tabs still share the free period.
 * const sync = tabSync({ locks: null } satisfies SyncOptions);
 * ```
 */
export interface SyncOptions {
  /**
   * The lock manager; `navigator.locks` when omitted. With `null` (or where there are none), each tab
   * bills on its own and tabs share only the free period and the "changed" nudge.
   */
  readonly locks?: LocksLike | null;
}

/**
 * Options of `reloadSafe()`.
 *
 * @example
 * ```ts
 * // A storage shared by every tab of the origin.
 * const storage = reloadSafe(localStorage, { perTab: false } satisfies ReloadSafeOptions);
 * ```
 */
export interface ReloadSafeOptions {
  /**
   * The lock manager that tells which pages are gone (each page holds a lock
   * for its life); `navigator.locks` when omitted. Without one (`null`, or a
   * platform without Web Locks) nothing can prove a page gone, so consumes are
   * not journaled and nothing is replayed; the free period is still kept.
   */
  readonly locks?: LocksLike | null;
  /**
   * Whether the storage belongs to this tab alone, as `sessionStorage` does:
   * a tab opened with a copy of it (`window.open`, "Duplicate tab") then drops
   * at once what a still-living page left in it, which is that page's to
   * finish, and never replays it. `true` when the storage is `sessionStorage`,
   * else `false` (a shared `localStorage` keeps other tabs' entries).
   */
  readonly perTab?: boolean;
}

/**
 * A consume another page sent without hearing the answer (a page reloaded,
 * a tab that died), sent again with the same `externalId` by the page that
 * reports it: its outcome, as `recovered$` delivers it.
 *
 * @example
 * ```ts
 * client.billing.recovered$.subscribe(({ externalId, outcome }) => {
 *   // The app noted which document each click's id was for, when the user clicked.
 *   const docId = sessionStorage.getItem(`pending-export:${externalId}`);
 *   if (outcome.ok && docId !== null) resumeExport(docId);
 * });
 * ```
 */
export interface RecoveredConsume {
  readonly externalId: string;
  readonly outcome: ConsumeOutcome;
}
