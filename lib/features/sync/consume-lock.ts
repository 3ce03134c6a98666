import { scopedName, type ConsumeLock, type FeatureSetup, type HeldLock } from '../feature';
import { deadline } from '../../shared/deadline';
import { BillingError } from '../../shared/errors';
import type { LocksLike } from '../../shared/feature-types';
import { holdLock } from '../web-locks';

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
