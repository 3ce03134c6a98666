import { subtractAmount } from '../shared/subtract-amount';
import type { BillingReason } from '../shared/types';
import { decide } from './decide';
import type { BillingState } from './state';

/**
 * What the next `consume()` would do, from the cache, without a request: the
 * verdict of `check()` plus its price and the quota it would leave.
 *
 * @example
 * ```ts
 * const { canProceed, cost, balanceAfter } = billing.preview();
 * if (canProceed && cost) label.textContent = `This export costs ${cost} credits (→ ${balanceAfter})`;
 * ```
 */
export interface BillingPreview {
  readonly canProceed: boolean;
  readonly reason: BillingReason;
  /** Credits this use would take: 0 for `free_period`/`free_count`, `creditsPerUse` otherwise; `null` before the first fetch. */
  readonly cost: number | null;
  /** `freeRemaining` after this use; `null` before the first fetch. */
  readonly freeAfter: number | null;
  /**
   * `creditsBalance` after this use (unchanged when it cannot proceed); `null` before the first fetch.
   * Amounts are subtracted without float noise: the result is rounded to the larger count of decimals
   * of the balance and the price, so 0.3 − 0.1 is 0.2 (not 0.19999999999999998).
   */
  readonly balanceAfter: number | null;
}

/**
 * The preview of the next use at `now` (scheduler ms): `decide()`'s verdict,
 * so it never disagrees with `check()`, with what it would cost. Pure. Before
 * the first fetch only the verdict is known: a free period (one charged before
 * the cache was filled) is free whatever the quota says. `balanceAfter` is
 * `subtractAmount(balance, price)`: rounded to the larger count of decimals
 * of the two, so 0.3 − 0.1 is 0.2.
 */
export function preview(state: BillingState, now: number): BillingPreview {
  const verdict = decide(state, now);
  const { reason } = verdict;
  const quota = state.quota;
  // A credit use's price is known once the quota is; a free use costs nothing either way.
  const cost = reason === 'credits' || reason === 'insufficient' ? (quota?.creditsPerUse ?? null) : 0;
  return Object.freeze({
    ...verdict,
    cost,
    freeAfter: quota && quota.freeRemaining - (reason === 'free_count' ? 1 : 0),
    balanceAfter: quota && subtractAmount(quota.creditsBalance, reason === 'credits' ? quota.creditsPerUse : 0),
  });
}
