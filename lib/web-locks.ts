import { BillingError } from './errors';
import type { LocksLike } from './feature-types';

/** The platform's Web Locks (`navigator.locks`), or `null` where there are none (insecure origins, Node 20). */
export function defaultLocks(): LocksLike | null {
  const candidate = (globalThis as { navigator?: { locks?: LocksLike } }).navigator?.locks;
  return typeof candidate?.request === 'function' ? candidate : null;
}

/** The lock manager a feature uses: the one given, none for `null`, the platform's when omitted. */
export function locksOf(given: LocksLike | null | undefined, factory: string): LocksLike | null {
  if (given === undefined) return defaultLocks();
  if (given !== null && typeof given.request !== 'function') {
    throw new BillingError('invalid_argument', `${factory} locks must be a lock manager (navigator.locks) or null`);
  }
  return given;
}

/**
 * Holds the exclusive lock `name` until the function returned is called. The
 * request is made before this returns, so a lock manager that grants in order
 * counts it ahead of anything asked later. `onHeld` runs once it is granted.
 */
export function holdLock(locks: LocksLike, name: string, signal?: AbortSignal, onHeld?: () => void): () => void {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  locks
    .request(name, signal === undefined ? {} : { signal }, () => {
      onHeld?.();
      return held;
    })
    .catch(() => undefined);
  return release;
}

/** Whether the lock `name` is free now; takes and drops it at once when it is (`ifAvailable`). */
export function lockFree(locks: LocksLike, name: string): Promise<boolean> {
  return locks.request(name, { ifAvailable: true }, (lock) => Promise.resolve(lock !== null)).catch(() => false);
}
