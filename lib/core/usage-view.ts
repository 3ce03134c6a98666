import type { QuotaFields, UsageInfo } from '../shared/types';
import { freePeriodSeconds, inFreePeriod } from './decide';
import type { BillingState } from './state';

/** The quota fields, in one list: what the cache compares and the views show. */
export const QUOTA_KEYS = [
  'isEnabled',
  'freeRemaining',
  'freeTotal',
  'creditsPerUse',
  'creditsBalance',
] as const satisfies ReadonlyArray<keyof QuotaFields>;

/** The public `UsageInfo` of a state at `now`; `null` before the first fetch. */
export function toUsageInfo(state: BillingState, now: number): UsageInfo | null {
  const quota = state.quota;
  if (quota === null) return null;
  // Field by field: a quota from another tab's message must not bring keys of its own.
  const { isEnabled, freeRemaining, freeTotal, creditsPerUse, creditsBalance } = quota;
  return {
    isEnabled,
    freeRemaining,
    freeTotal,
    creditsPerUse,
    creditsBalance,
    inFreePeriod: inFreePeriod(state, now),
    freePeriodRemaining: freePeriodSeconds(state, now),
  };
}

/** Equal for `onChange` purposes: every field but the ticking `freePeriodRemaining`. */
export function sameUsage(a: UsageInfo | null, b: UsageInfo | null): boolean {
  if (a === null || b === null) return a === b;
  return a.inFreePeriod === b.inFreePeriod && QUOTA_KEYS.every((key) => a[key] === b[key]);
}
