import type { SchedulerLike } from 'rxjs';
import type { Exclusive, Sender } from '../feature';
import { BillingError } from '../../shared/errors';
import type { LocksLike } from '../../shared/feature-types';
import { holdLock } from '../web-locks';

/** What runs under the lock before the consume decides; `cut` aborts when the wait ends (timeout, abort). */
export type Learn = (sender: Sender, cut: AbortSignal) => Promise<void>;

/**
 * The cross-tab consume lock of one scope, as the engine's `exclusive`: once
 * granted, `learn` runs (a dead tab's POST sent again, what other tabs' free
 * periods say) before it resolves. The wait is bounded: after `timeoutMs` on
 * the scheduler (a hung lock manager, a tab frozen while holding the lock, a
 * re-send that does not answer) it rejects `timeout`, and an abort of `signal`
 * ends it at once; either way the request is withdrawn and what `learn` still
 * does is cut, so nothing stays pending and a grant that comes anyway is let
 * go at once. A lock manager that refuses the request (throws or rejects) lets
 * the consume bill as without Web Locks.
 */
export function consumeLock(
  locks: LocksLike,
  name: string,
  scheduler: SchedulerLike,
  timeoutMs: number,
  learn: Learn,
): Exclusive {
  return (signal, sender) =>
    new Promise((resolve, reject) => {
      let release = (): void => undefined;
      let settled = false;
      let held = false;
      const cut = new AbortController();
      const settle = (error: BillingError | null) => {
        if (settled) return;
        settled = true;
        timer.unsubscribe();
        signal.removeEventListener('abort', aborted);
        if (error === null) return resolve(release);
        cut.abort();
        release();
        reject(error);
      };
      const aborted = () => settle(new BillingError('aborted', 'consume() was aborted while waiting for another tab'));
      const timer = scheduler.schedule(
        () =>
          settle(
            new BillingError(
              'timeout',
              held
                ? `consume() timed out after ${timeoutMs} ms under the cross-tab consume lock, before deciding (sending again the consume of a closed tab, or asking the other tabs for their free period)`
                : `consume() timed out after ${timeoutMs} ms waiting for the cross-tab consume lock (another tab holds it, or the lock manager does not answer)`,
            ),
          ),
        timeoutMs,
      );
      if (signal.aborted) return aborted();
      signal.addEventListener('abort', aborted, { once: true });
      const learnThenGo = () => {
        held = true;
        if (!settled)
          void learn(sender, cut.signal).then(
            () => settle(null),
            () => settle(null),
          );
      };
      release = holdLock(locks, name, undefined, learnThenGo, () => settle(null));
    });
}
