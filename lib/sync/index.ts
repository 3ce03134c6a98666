import { Observable } from 'rxjs';
import { BillingError } from '../errors';
import type { Effect } from '../engine/effect';
import type { BillingFeature, Exclusive } from '../engine/feature';
import type { LocksLike, SyncOptions } from '../feature-types';
import { shareState } from './share-state';
import { TabChannel } from './tab-channel';
import { tabExclusive, type TabLockLimits } from './tab-lock';

/** What the `sync` option adds to the engine. */
export interface TabSync {
  readonly effect: Effect;
  readonly exclusive: Exclusive;
}

function defaultLocks(): LocksLike | null {
  const candidate = (globalThis as { navigator?: { locks?: LocksLike } }).navigator?.locks;
  return typeof candidate?.request === 'function' ? candidate : null;
}

/**
 * Tab sync over a BroadcastChannel named by `scope`; `null` where the platform
 * has no BroadcastChannel, in which case each tab bills on its own.
 */
export function createTabSync(
  scope: string,
  locks: LocksLike | null | undefined,
  limits: TabLockLimits,
): TabSync | null {
  if (typeof BroadcastChannel !== 'function') return null;
  const name = `unified-billing:${scope}`;
  const channel = new TabChannel(name);
  const lockManager = locks === undefined ? defaultLocks() : locks;
  return {
    effect: shareState(channel, limits.wallNow, () => channel.close()),
    exclusive: heldWhile(tabExclusive(channel, `${name}:consume`, lockManager, limits)),
  };
}

// Until the tab lock is rewritten to the promise seam: held while a never-ending work stream runs under it.
function heldWhile(run: ReturnType<typeof tabExclusive>): Exclusive {
  return (signal) =>
    new Promise((resolve, reject) => {
      const aborted = () => {
        lease.unsubscribe();
        reject(new BillingError('aborted', 'consume() was aborted'));
      };
      const lease = run(
        new Observable<never>(() => resolve(() => (signal.removeEventListener('abort', aborted), lease.unsubscribe()))),
      ).subscribe({
        error: reject,
      });
      if (signal.aborted) aborted();
      else signal.addEventListener('abort', aborted);
    });
}

/**
 * Tab sync for the `sync` option: tabs of one origin share the free period and
 * the latest usage over a BroadcastChannel, and consume one at a time across
 * tabs (under a Web Lock where `navigator.locks` exists, else a claim protocol).
 * Where the platform has no BroadcastChannel, each tab bills on its own.
 *
 * @example
 * ```ts
 * import { createClient, tabSync } from 'unified-billing';
 *
 * const client = createClient({ baseUrl, appKey: 'poster', sync: tabSync() });
 * ```
 */
export function tabSync(options: SyncOptions = {}): BillingFeature<'sync'> {
  return {
    kind: 'sync',
    install: ({ scope, scheduler, timeoutMs, retries, wallNow }) => {
      // Every attempt may take timeoutMs, and each backoff waits at most 8 s (30 s with Retry-After).
      const holdCapMs = timeoutMs * (retries + 1) + 30_000 * retries + 1_000;
      const sync = createTabSync(scope, options.locks, { scheduler, holdCapMs, wallNow });
      return sync === null ? {} : { effects: [sync.effect], exclusive: sync.exclusive };
    },
  };
}
