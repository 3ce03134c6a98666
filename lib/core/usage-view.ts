import { pickQuota } from '../shared/quota-keys';
import type { UsageInfo } from '../shared/types';
import { freePeriodSeconds, inFreePeriod } from './decide';
import type { BillingState } from './state';

/** The public `UsageInfo` of a state at `now`; `null` before the first fetch. */
export function toUsageInfo(state: BillingState, now: number): UsageInfo | null {
  const quota = state.quota;
  if (quota === null) return null;
  return {
    ...pickQuota(quota),
    inFreePeriod: inFreePeriod(state, now),
    freePeriodRemaining: freePeriodSeconds(state, now),
  };
}
