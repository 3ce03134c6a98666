import type { Client } from '../index';

/** Who a provider's client is for: an id (not a token), `null` or absent for an app with one user. */
export type BillingUser = string | number | null | undefined;

// Clients made in a render that no effect has claimed yet. A render React throws away never runs
// its effects: React 18's StrictMode drops the first of its two mount renders, hooks and refs
// included, and a concurrent render can be dropped before its commit. Its client stays here until
// the next provider commit disposes it.
const unclaimed = new Set<Held>();
let madeSoFar = 0;
// The newest client claimed since the last sweep: the sweep spares what was made after it (a render
// that started after the commit, in the same task, and has not committed yet).
let sweepUpTo = 0;
let sweepQueued = false;

function dispose(held: Held): void {
  unclaimed.delete(held);
  if (held.disposed) return;
  held.disposed = true;
  held.client.billing.dispose();
}

/**
 * Makes the client in render; in a browser it waits for an effect to claim it. It gives the client, the
 * user it was made for, `made` (which numbers the clients in the order their renders made them), the
 * mounted providers' effects holding it (`claims`), and whether it was disposed.
 */
export function hold(create: (user: BillingUser) => Client, user: BillingUser) {
  const held = { client: create(user), user, made: (madeSoFar += 1), claims: 0, disposed: false };
  // A server render never commits, so nothing would ever sweep what it made: those are not listed.
  if (typeof window !== 'undefined') unclaimed.add(held);
  return held;
}

/** One client a provider made in render, as {@link hold} gives it. */
export type Held = ReturnType<typeof hold>;

/**
 * Called from a provider's effect. A commit runs every mounted provider's effects before a
 * microtask can, so a microtask later each client its render kept is claimed; one still unclaimed
 * then, and made before the newest claimed, was made in a render that did not commit.
 */
export function claim(held: Held): void {
  held.claims += 1;
  unclaimed.delete(held);
  sweepUpTo = Math.max(sweepUpTo, held.made);
  if (sweepQueued) return;
  sweepQueued = true;
  queueMicrotask(() => {
    sweepQueued = false;
    [...unclaimed].filter(({ made }) => made <= sweepUpTo).forEach(dispose);
  });
}

/**
 * Called from the effect's cleanup. StrictMode's simulated unmount runs the effect again at once,
 * so the dispose waits a microtask and is dropped when the client was claimed again.
 */
export function release(held: Held): void {
  held.claims -= 1;
  queueMicrotask(() => {
    if (held.claims === 0) dispose(held);
  });
}
