import type { UsageInfo } from '../shared/types';
import { freePeriodSeconds, inFreePeriod } from './decide';
import type { BillingState } from './state';

/** The public `UsageInfo` of a state at `now`; `null` before the first fetch. */
export function toUsageInfo(state: BillingState, now: number): UsageInfo | null {
  const quota = state.quota;
  if (quota === null) return null;
  // The state's quota holds its five fields only (every way in picks them), and one spread of it is the
  // cheapest copy: this runs on every change of the state.
  return { ...quota, inFreePeriod: inFreePeriod(state, now), freePeriodRemaining: freePeriodSeconds(state, now) };
}
