import type { BillingCheckResult } from '../types';
import type { BillingState } from './state';

// Frozen singletons: `check()` allocates nothing on its hot path.
const FREE_PERIOD: BillingCheckResult = Object.freeze({ canProceed: true, reason: 'free_period' });
const FREE_COUNT: BillingCheckResult = Object.freeze({ canProceed: true, reason: 'free_count' });
const CREDITS: BillingCheckResult = Object.freeze({ canProceed: true, reason: 'credits' });
const INSUFFICIENT: BillingCheckResult = Object.freeze({ canProceed: false, reason: 'insufficient' });

/** Whether a free period is active at `now` (scheduler milliseconds). */
export function inFreePeriod(state: BillingState, now: number): boolean {
  return state.freePeriodEnd !== null && now < state.freePeriodEnd;
}

/**
 * The billing priority of the spec, as one pure function used by both
 * `check()` and `consume()`: free period, free quota, credits, else insufficient.
 */
export function decide(state: BillingState, now: number): BillingCheckResult {
  if (inFreePeriod(state, now)) return FREE_PERIOD;
  const quota = state.quota;
  if (quota === null) return INSUFFICIENT;
  if (quota.freeRemaining > 0) return FREE_COUNT;
  if (quota.creditsBalance >= quota.creditsPerUse) return CREDITS;
  return INSUFFICIENT;
}

/** Whole seconds left in the free period, `ceil`, 0 when none is active. */
export function freePeriodSeconds(state: BillingState, now: number): number {
  if (!inFreePeriod(state, now)) return 0;
  // The clamp keeps the figure within 0..30 whatever the clock did.
  const ms = Math.min((state.freePeriodEnd as number) - now, 30_000);
  return Math.ceil(ms / 1000);
}
