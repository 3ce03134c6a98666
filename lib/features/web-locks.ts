import { BillingError, invalid } from '../shared/errors';
import { deadline, deferred } from '../shared/deadline';
import type { LocksLike } from '../shared/feature-types';
import type { LockHold, StoreHooks } from '../store/hooks';
import { recovery } from '../store/recovery';
import { scopedName, type ConsumeLock, type FeatureSetup, type HeldLock } from './feature';

/**
 * The lock manager a feature uses: the one given, none for `null`, and when omitted the platform's
 * (`navigator.locks`), where there is one (not on insecure origins, nor in Node 20).
 */
export function locksOf(given: LocksLike | null | undefined, factory: string): LocksLike | null {
  if (given === undefined) {
    const platform = (globalThis as { navigator?: { locks?: LocksLike } }).navigator?.locks;
    return typeof platform?.request === 'function' ? platform : null;
  }
  if (given !== null && typeof given.request !== 'function') {
    invalid(__DEV__ ? `${factory} locks must be a lock manager (navigator.locks) or null` : `invalid ${factory} locks`);
  }
  return given;
}

/**
 * Holds the exclusive lock `name` until `release` is called. The request is
 * made before this returns, so a lock manager that grants in order counts it
 * ahead of anything asked later. `granted` resolves with `true` once it is
 * granted, with `false` if the lock manager throws or rejects the request
 * other than for a withdrawal, or, with `ifAvailable`, if the lock is held
 * elsewhere (nothing will be held). Releasing withdraws a request not yet
 * granted (`granted` then never settles), and a grant that still arrives
 * after the release is let go at once: a disposed client leaves nothing held
 * or asked for.
 */
export function holdLock(locks: LocksLike, name: string, { ifAvailable = false } = {}): LockHold {
  // One signal both withdraws the request and ends the hold: a granted lock is held until it aborts.
  const withdraw = new AbortController();
  const released = new Promise<void>((resolve) => withdraw.signal.addEventListener('abort', () => resolve()));
  const granted = deferred<boolean>();
  // Asked from an async function, so a lock manager that throws instead of rejecting is refused alike. An
  // `ifAvailable` request never waits, so it has nothing to withdraw (and the platform refuses a signal with it).
  void (async () =>
    locks.request(name, ifAvailable ? { ifAvailable } : { signal: withdraw.signal }, (lock) => {
      // A grant after the release is let go at once (`released` has settled), and tells nobody.
      if (!withdraw.signal.aborted) granted.resolve(lock !== null);
      return lock === null ? Promise.resolve() : released;
    }))().catch(() => withdraw.signal.aborted || granted.resolve(false));
  return { release: () => withdraw.abort(), granted: granted.promise };
}

/** The lock a page holds for its client's life (the store holds it once): free means that page is gone. */
const pageLockName = (scope: string, pageId: string): string => scopedName(scope, 'page', pageId);

// Held by a page, for its life, for each id it reported on recovered$ (contract decision 13).
const reportedLockName = (scope: string, externalId: string): string => scopedName(scope, 'reported', externalId);

/**
 * What both features that find unanswered POSTs bring: the one recovery, this page's lock, and the
 * mark of what it reported, which the store holds for its life (it takes the first offered).
 */
export const recoveryHooks = (locks: LocksLike, { scope, pageId }: FeatureSetup): StoreHooks => ({
  recovery,
  holdPageLock: () => holdLock(locks, pageLockName(scope, pageId)).release,
  // Taken only if free (`ifAvailable`), so of two pages about to replay the same id at once, whatever
  // lock each holds (per-tab storages share none), one takes it and replays; the other drops the id.
  reportMarks: {
    take: (externalId) => holdLock(locks, reportedLockName(scope, externalId), { ifAvailable: true }),
  },
});

/**
 * Whether the lock `name` is free now; takes and drops it at once when it is
 * (`ifAvailable`), shared, so that pages probing the same page lock at once
 * (the journal of a reload, another tab's consume) do not see each other. Such a request is answered at once and never waits, so it
 * needs no signal (and the platform refuses one with `ifAvailable`).
 */
export function lockFree(locks: LocksLike, name: string): Promise<boolean> {
  // A lock manager that throws (as one that rejects) tells nothing: the lock counts as held.
  const probe = async () =>
    locks.request(name, { ifAvailable: true, mode: 'shared' }, (lock) => Promise.resolve(lock !== null));
  return probe().catch(() => false);
}

/** Which of `pages` are gone: those whose page lock is free, each probed once. */
export async function gonePages(locks: LocksLike, scope: string, pages: Iterable<string>): Promise<Set<string>> {
  const gone = new Set<string>();
  for (const page of new Set(pages)) if (await lockFree(locks, pageLockName(scope, page))) gone.add(page);
  return gone;
}

/**
 * The cross-tab consume lock of one scope (`unified-billing:<scope>:consume`): once
 * granted, `findOrphans` learns what the holder must know before deciding (the dead
 * tabs' unanswered POSTs, another tab's free period) and the lock answers with it.
 * The wait, that included, ends after `timeoutMs` on the scheduler with `timeout`, or
 * at once with `aborted` when `signal` aborts; either way the request is withdrawn and
 * the lock let go. A lock manager that refuses the request lets the consume bill as
 * without Web Locks.
 */
export function consumeLock(
  locks: LocksLike,
  { scope, scheduler, timeoutMs }: FeatureSetup,
  findOrphans: (signal: AbortSignal) => Promise<readonly string[]>,
): ConsumeLock {
  const name = scopedName(scope, 'consume');
  return (signal) =>
    deadline(
      async (waitEnded): Promise<HeldLock> => {
        const { release, granted } = holdLock(locks, name);
        waitEnded.addEventListener('abort', release, { once: true });
        // Refused: nothing is held, and the consume bills as without Web Locks.
        return { release, orphans: (await granted) ? await findOrphans(waitEnded).catch(() => []) : [] };
      },
      {
        scheduler,
        ms: timeoutMs,
        signal,
        onAbort: () => {
          throw new BillingError('aborted', 'consume() was aborted while waiting for another tab');
        },
        onTimeout: () => {
          throw new BillingError(
            'timeout',
            `consume() timed out after ${timeoutMs} ms waiting for the cross-tab consume lock (another tab holds it, or the lock manager does not answer), or under it, for what it learns before deciding (the consumes closed tabs left unanswered, another tab's free period)`,
          );
        },
      },
    );
}
