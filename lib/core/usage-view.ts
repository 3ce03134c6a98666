import type { UsageInfo } from '../types';
import { freePeriodSeconds, inFreePeriod } from './decide';
import type { BillingState } from './state';

/** The public `UsageInfo` of a state at `now`; `null` before the first fetch. */
export function toUsageInfo(state: BillingState, now: number): UsageInfo | null {
  const quota = state.quota;
  if (quota === null) return null;
  return {
    isEnabled: quota.isEnabled,
    freeRemaining: quota.freeRemaining,
    freeTotal: quota.freeTotal,
    creditsPerUse: quota.creditsPerUse,
    creditsBalance: quota.creditsBalance,
    inFreePeriod: inFreePeriod(state, now),
    freePeriodRemaining: freePeriodSeconds(state, now),
  };
}

/** Equal for `onChange` purposes: every field but the ticking `freePeriodRemaining`. */
export function sameUsage(a: UsageInfo | null, b: UsageInfo | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.isEnabled === b.isEnabled &&
    a.freeRemaining === b.freeRemaining &&
    a.freeTotal === b.freeTotal &&
    a.creditsPerUse === b.creditsPerUse &&
    a.creditsBalance === b.creditsBalance &&
    a.inFreePeriod === b.inFreePeriod
  );
}
