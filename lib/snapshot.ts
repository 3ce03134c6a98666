import type { BillingAction } from './core/actions';
import { FREE_PERIOD_MS, type BillingState } from './core/state';
import { QUOTA_KEYS } from './core/usage-view';
import { BillingError } from './errors';

/**
 * What `billing.snapshot()` gives and the `bootstrap` option takes: the cached
 * usage and the free period on the wall clock, plain JSON, so a page rendered
 * on the server hands it to the browser's client.
 *
 * @example
 * ```ts
 * // On the server, with the user's credentials:
 * await server.billing.getUsage();
 * const snapshot = server.billing.snapshot(); // JSON.stringify it into the page
 * // In the browser: the quota at once, nothing fetched because of it.
 * const client = createClient({ baseUrl, appKey: 'poster', bootstrap: snapshot });
 * ```
 */
export interface BillingSnapshot {
  v: 1;
  usage: {
    isEnabled: boolean;
    freeRemaining: number;
    freeTotal: number;
    creditsPerUse: number;
    creditsBalance: number;
  };
  /** Wall-clock ms when that usage was answered. */
  fetchedAt: number;
  /** Wall-clock ms; `null` when no free period is active. */
  freePeriodEndsAt: number | null;
}

/** The snapshot of `state` (`null` before the first answer); `now` on the scheduler, `wall` on the wall clock. */
export function toSnapshot(state: BillingState, now: number, wall: number): BillingSnapshot | null {
  const { quota, freePeriodEnd, status } = state;
  if (quota === null) return null;
  const { isEnabled, freeRemaining, freeTotal, creditsPerUse, creditsBalance } = quota;
  const toWall = (at: number) => Math.round(wall + at - now);
  return {
    v: 1,
    usage: { isEnabled, freeRemaining, freeTotal, creditsPerUse, creditsBalance },
    fetchedAt: toWall(status.fetchedAt ?? now),
    freePeriodEndsAt: freePeriodEnd !== null && freePeriodEnd > now ? toWall(freePeriodEnd) : null,
  };
}

const invalid = (field: string, what: string): never => {
  throw new BillingError('invalid_argument', `bootstrap.${field} must be ${what}`);
};

const isCount = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The `bootstrap` option checked: `undefined` for `null` or absent; `invalid_argument` naming the field otherwise. */
export function checkSnapshot(value: unknown): BillingSnapshot | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') invalid('', 'a snapshot from billing.snapshot()');
  const { v, usage, fetchedAt, freePeriodEndsAt } = value as Record<string, unknown>;
  if (v !== 1) invalid('v', '1');
  if (typeof usage !== 'object' || usage === null) invalid('usage', 'an object');
  const fields = usage as Record<string, unknown>;
  for (const key of QUOTA_KEYS) {
    if (key === 'isEnabled' ? typeof fields[key] !== 'boolean' : !isCount(fields[key])) {
      invalid(`usage.${key}`, key === 'isEnabled' ? 'a boolean' : 'an integer >= 0');
    }
  }
  if (!isTime(fetchedAt)) invalid('fetchedAt', 'wall-clock milliseconds');
  if (freePeriodEndsAt !== null && !isTime(freePeriodEndsAt)) invalid('freePeriodEndsAt', 'wall-clock ms or null');
  return value as BillingSnapshot;
}

/**
 * The fact a bootstrap gives: its usage, its fetch time on the scheduler's
 * clock, and what is left of its free period by the wall clock, at most 30 s
 * and never beyond 30 s after `fetchedAt`.
 */
export function restoreAction(snapshot: BillingSnapshot, now: number, wall: number): BillingAction {
  const { usage, fetchedAt, freePeriodEndsAt } = snapshot;
  const end = freePeriodEndsAt === null ? wall : Math.min(freePeriodEndsAt, fetchedAt + FREE_PERIOD_MS);
  // Field by field: a snapshot must not bring keys of its own into the cache.
  const { isEnabled, freeRemaining, freeTotal, creditsPerUse, creditsBalance } = usage;
  const quota = { isEnabled, freeRemaining, freeTotal, creditsPerUse, creditsBalance };
  return {
    type: 'usage/bootstrapped',
    quota,
    now,
    fetchedAt: now - Math.max(0, wall - fetchedAt),
    remainingMs: end - wall,
  };
}
