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
 * The part of the Web Locks API (`navigator.locks`) the tab sync uses.
 *
 * @example
 * ```ts
 * const locks: LocksLike = navigator.locks;
 * ```
 */
export interface LocksLike {
  /** Runs `callback` while holding the exclusive lock `name`; the lock is released when its promise settles. */
  request<T>(name: string, options: { signal?: AbortSignal }, callback: (lock: unknown) => Promise<T>): Promise<T>;
  /**
   * The locks held and asked for now. Optional: `reloadSafe` uses it to tell
   * which pages are alive, and pings over a BroadcastChannel without it.
   */
  query?(): Promise<{
    readonly held?: ReadonlyArray<{ readonly name?: string }>;
    readonly pending?: ReadonlyArray<{ readonly name?: string }>;
  }>;
}

/**
 * Options of `tabSync()`.
 *
 * @example
 * ```ts
 * // Force the BroadcastChannel claim protocol even where Web Locks exist.
 * const sync = tabSync({ locks: null } satisfies SyncOptions);
 * ```
 */
export interface SyncOptions {
  /** The lock manager; `navigator.locks` when omitted, `null` for the claim protocol without locks. */
  readonly locks?: LocksLike | null;
}

/**
 * Options of `reloadSafe()`.
 *
 * @example
 * ```ts
 * // Tell live pages by pings over a BroadcastChannel even where Web Locks exist.
 * const storage = reloadSafe(sessionStorage, { locks: null } satisfies ReloadSafeOptions);
 * ```
 */
export interface ReloadSafeOptions {
  /**
   * The lock manager that tells which pages are alive (each holds a lock for
   * its life); `navigator.locks` when omitted, `null` for pings over a
   * BroadcastChannel. Neither available: every entry left over is replayed.
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
 * A consume an earlier page sent without hearing the answer, replayed at start
 * with the same `externalId`: its outcome, as `recovered$` delivers it.
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
