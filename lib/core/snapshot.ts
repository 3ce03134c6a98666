import type { BillingAction } from './actions';
import { FREE_PERIOD_MS, type BillingState } from './state';
import { inFreePeriod } from './decide';
import { invalid } from '../shared/errors';
import { invalidQuotaKey, isCount, pickQuota } from '../shared/quota-keys';
import type { QuotaFields } from '../shared/types';

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
  usage: QuotaFields;
  /** Wall-clock ms when that usage was answered. */
  fetchedAt: number;
  /** Wall-clock ms; `null` when no free period is active. */
  freePeriodEndsAt: number | null;
}

// A scheduler time `at` on the wall clock, given both clocks' readings now.
const toWall = (at: number, now: number, wall: number) => Math.round(wall + at - now);

/** The end of the free period on the wall clock, `null` when none is active. */
export const freePeriodEndsAt = (state: BillingState, now: number, wall: number): number | null =>
  inFreePeriod(state, now) ? toWall(state.freePeriodEnd as number, now, wall) : null;

/** The snapshot of `state` (`null` before the first answer); `now` on the scheduler, `wall` on the wall clock. */
export function toSnapshot(state: BillingState, now: number, wall: number): BillingSnapshot | null {
  return (
    state.quota && {
      v: 1,
      usage: pickQuota(state.quota),
      fetchedAt: toWall(state.status.fetchedAt ?? now, now, wall),
      freePeriodEndsAt: freePeriodEndsAt(state, now, wall),
    }
  );
}

/** The `bootstrap` option checked: `undefined` for `null` or absent; `invalid_argument` naming the field otherwise. */
export function checkSnapshot(value: unknown): BillingSnapshot | undefined {
  if (value == null) return undefined;
  // A primitive destructures to undefined fields, so it fails at `v`.
  const { v, usage, fetchedAt, freePeriodEndsAt } = value as Record<string, unknown>;
  // The usage as every quota is checked; the times as counts, since snapshot() rounds them to whole ms.
  const key = invalidQuotaKey(usage);
  // The first field that fails its check.
  const field =
    (v !== 1 && 'v') ||
    (key && `usage.${key}`) ||
    (!isCount(fetchedAt) && 'fetchedAt') ||
    (freePeriodEndsAt !== null && !isCount(freePeriodEndsAt) && 'freePeriodEndsAt');
  if (field) invalid(__DEV__ ? `bootstrap.${field} is not from billing.snapshot()` : `invalid bootstrap.${field}`);
  return value as BillingSnapshot;
}

/**
 * The fact a bootstrap gives: its usage, its fetch time on the scheduler's
 * clock, and what is left of its free period by the wall clock, at most 30 s
 * and never beyond 30 s after `fetchedAt`.
 */
export const restoreAction = (snapshot: BillingSnapshot, now: number, wall: number): BillingAction => ({
  type: 'usage/bootstrapped',
  quota: pickQuota(snapshot.usage),
  now,
  fetchedAt: now - Math.max(0, wall - snapshot.fetchedAt),
  // Without a free period this is <= 0: none is adopted.
  remainingMs: Math.min(snapshot.freePeriodEndsAt ?? wall, snapshot.fetchedAt + FREE_PERIOD_MS) - wall,
});
