import type { SchedulerLike } from 'rxjs';
import type { Exclusive } from '../feature';
import { BillingError } from '../../shared/errors';
import type { LocksLike } from '../../shared/feature-types';
import { holdLock } from '../web-locks';

/**
 * The cross-tab consume lock of one scope, as the engine's `exclusive`: once
 * granted, `learn` runs (what other tabs' free periods say) before it resolves.
 * The wait is bounded: after `timeoutMs` on the scheduler (a hung lock manager,
 * a tab frozen while holding the lock) it rejects `timeout`, and an abort of
 * `signal` ends it at once; either way the request is withdrawn, so nothing
 * stays pending and a grant that comes anyway is let go at once. A lock
 * manager that refuses the request (throws or rejects) lets the consume bill
 * as without Web Locks.
 */
export function consumeLock(
  locks: LocksLike,
  name: string,
  scheduler: SchedulerLike,
  timeoutMs: number,
  learn: () => Promise<void>,
): Exclusive {
  return (signal) =>
    new Promise((resolve, reject) => {
      let release = (): void => undefined;
      let settled = false;
      const settle = (error: BillingError | null) => {
        if (settled) return;
        settled = true;
        timer.unsubscribe();
        signal.removeEventListener('abort', aborted);
        if (error === null) return resolve(release);
        release();
        reject(error);
      };
      const aborted = () => settle(new BillingError('aborted', 'consume() was aborted while waiting for another tab'));
      const timer = scheduler.schedule(
        () =>
          settle(
            new BillingError(
              'timeout',
              `consume() timed out after ${timeoutMs} ms waiting for the cross-tab consume lock (another tab holds it, or the lock manager does not answer)`,
            ),
          ),
        timeoutMs,
      );
      if (signal.aborted) return aborted();
      signal.addEventListener('abort', aborted, { once: true });
      const learnThenGo = () => {
        if (!settled)
          void learn().then(
            () => settle(null),
            () => settle(null),
          );
      };
      release = holdLock(locks, name, undefined, learnThenGo, () => settle(null));
    });
}
