import { scopedName, type ConsumeLock, type FeatureSetup, type Replay } from '../feature';
import { deadline } from '../../shared/deadline';
import { BillingError } from '../../shared/errors';
import type { LocksLike } from '../../shared/feature-types';
import { holdLock } from '../web-locks';

/** What runs under the lock before the consume decides; `signal` aborts when the wait ends (timeout, abort). */
export type BeforeDecide = (replay: Replay, signal: AbortSignal) => Promise<void>;

/**
 * The cross-tab consume lock of one scope (`unified-billing:<scope>:consume`): once
 * granted, `beforeDecide` runs (a dead tab's POST sent again, another tab's free
 * period asked for) before it resolves. The wait, that included, ends after
 * `timeoutMs` on the scheduler with `timeout`, or at once with `aborted` when
 * `signal` aborts; either way the request is withdrawn and the lock let go. A lock
 * manager that refuses the request lets the consume bill as without Web Locks.
 */
export function consumeLock(
  locks: LocksLike,
  { scope, scheduler, timeoutMs }: FeatureSetup,
  beforeDecide: BeforeDecide,
): ConsumeLock {
  const name = scopedName(scope, 'consume');
  return (signal, replay) => {
    let held = false;
    return deadline(
      (waitEnded) =>
        new Promise<() => void>((resolve) => {
          const release = holdLock(locks, name, {
            onHeld() {
              held = true;
              const go = () => resolve(release);
              void beforeDecide(replay, waitEnded).then(go, go);
            },
            onRefused: () => resolve(() => undefined),
          });
          waitEnded.addEventListener('abort', release, { once: true });
        }),
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
            held
              ? `consume() timed out after ${timeoutMs} ms under the cross-tab consume lock, before deciding (sending again the consume of a closed tab, or asking the other tabs for their free period)`
              : `consume() timed out after ${timeoutMs} ms waiting for the cross-tab consume lock (another tab holds it, or the lock manager does not answer)`,
          );
        },
      },
    );
  };
}
