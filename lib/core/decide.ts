import type { BillingCheckResult, BillingReason } from '../shared/types';
import { FREE_PERIOD_MS, type BillingState } from './state';

// Frozen singletons: `check()` allocates nothing on its hot path.
const verdict = (reason: BillingReason) =>
  Object.freeze({ canProceed: reason !== 'insufficient', reason }) as BillingCheckResult;
const FREE_PERIOD = verdict('free_period');
const FREE_COUNT = verdict('free_count');
const CREDITS = verdict('credits');
const INSUFFICIENT = verdict('insufficient');

/** Whether a free period is active at `now` (scheduler milliseconds). */
export function inFreePeriod(state: BillingState, now: number): boolean {
  return state.freePeriodEnd !== null && now < state.freePeriodEnd;
}

/**
 * The billing priority of the spec, as one pure function: free period, free
 * quota, credits, else insufficient. `check()` and `preview()` answer with it;
 * `consume()` asks only `inFreePeriod`, since outside a free period the
 * backend decides (and charges).
 */
export function decide(state: BillingState, now: number): BillingCheckResult {
  const quota = state.quota;
  if (inFreePeriod(state, now)) return FREE_PERIOD;
  if (quota && quota.freeRemaining > 0) return FREE_COUNT;
  return quota && quota.creditsBalance >= quota.creditsPerUse ? CREDITS : INSUFFICIENT;
}

/** Whole seconds left in the free period, `ceil`, 0 when none is active. */
export function freePeriodSeconds(state: BillingState, now: number): number {
  // The clamp keeps the figure within 0..30 whatever the clock did.
  if (!inFreePeriod(state, now)) return 0;
  return Math.ceil(Math.min((state.freePeriodEnd as number) - now, FREE_PERIOD_MS) / 1000);
}
