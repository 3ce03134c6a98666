import type { BillingError } from '../shared/errors';
import type { BillingConsumeResult } from '../shared/types';
import type { Quota } from './state';

/**
 * Every fact the reducer learns, as a discriminated union on `type`. Time and
 * request sequence numbers arrive inside the actions: the reducer reads no
 * clock. The status (loading, pending, error) is folded from the same facts.
 */
export type BillingAction =
  | { readonly type: 'usage/started' }
  // `seq` numbers the free-count request; `balanceSeq`, where it differs, the balance request of the pair.
  | {
      readonly type: 'usage/loaded';
      readonly seq: number;
      readonly balanceSeq?: number;
      readonly quota: Quota;
      readonly now: number;
    }
  | { readonly type: 'usage/failed'; readonly error: BillingError }
  // A usage snapshot given at creation (`bootstrap`): older than any answer, `fetchedAt` on the scheduler's clock.
  | {
      readonly type: 'usage/bootstrapped';
      readonly quota: Quota;
      readonly now: number;
      readonly fetchedAt: number;
      readonly remainingMs: number;
    }
  | { readonly type: 'balance/loaded'; readonly seq: number; readonly balance: number }
  | { readonly type: 'balance/failed'; readonly error: BillingError }
  | { readonly type: 'consume/sent'; readonly externalId: string }
  | {
      readonly type: 'consume/charged';
      readonly seq: number;
      readonly now: number;
      readonly freeRemaining: number;
      readonly isCredit: boolean;
    }
  | { readonly type: 'consume/insufficient'; readonly seq: number }
  // The caller has its outcome. `open`: its POST was sent and no answer fact closed it (blacklisted, failed).
  | {
      readonly type: 'consume/settled';
      readonly externalId: string | null;
      readonly result: BillingConsumeResult | null;
      readonly error: BillingError | null;
      readonly charged: boolean;
      readonly unanswered: boolean;
    }
  | { readonly type: 'freePeriod/ended'; readonly end: number }
  // A free period started elsewhere (another tab, or before a reload), as the milliseconds left at `now`,
  // because monotonic clocks of different pages do not share an origin.
  | { readonly type: 'freePeriod/adopted'; readonly now: number; readonly remainingMs: number };

/** The fact that a consume's caller has its outcome. */
export type ConsumeSettled = Extract<BillingAction, { readonly type: 'consume/settled' }>;

/** Builds {@link ConsumeSettled}: the one place its type is written outside the reducer's cases. */
export const consumeSettled = (outcome: Omit<ConsumeSettled, 'type'>): ConsumeSettled => ({
  type: 'consume/settled',
  ...outcome,
});
