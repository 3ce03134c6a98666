import type { BillingError } from '../shared/errors';
import type { BillingConsumeResult } from '../shared/types';
import type { ConsumeOrigin } from '../shared/billing-event';
import type { Quota } from './state';

/**
 * Every fact the reducer learns, as a discriminated union on `type`. Time and
 * request sequence numbers arrive inside the actions: the reducer reads no
 * clock. The status (loading, pending, error) is folded from the same facts.
 */
export type BillingAction = Readonly<
  | { type: 'usage/started' }
  // `seq` numbers the free-count request; `balanceSeq`, where it differs, the balance request of the pair.
  | { type: 'usage/loaded'; seq: number; balanceSeq?: number; quota: Quota; now: number }
  | { type: 'usage/failed'; error: BillingError }
  // A usage snapshot given at creation (`bootstrap`): older than any answer, `fetchedAt` on the scheduler's clock.
  | { type: 'usage/bootstrapped'; quota: Quota; now: number; fetchedAt: number; remainingMs: number }
  | { type: 'balance/started' }
  | { type: 'balance/loaded'; seq: number; balance: number }
  | { type: 'balance/failed'; error: BillingError }
  // `call` numbers a consume (or a replay) from its start to its end; `origin` is absent for the app's own.
  | { type: 'consume/started'; call: number; externalId?: string | undefined; origin?: ConsumeOrigin | undefined }
  // The cross-tab consume lock is held by the consume whose turn it is (the oldest not settled).
  | { type: 'consume/locked' }
  | { type: 'consume/sent'; externalId: string }
  | { type: 'consume/charged'; seq: number; now: number; freeRemaining: number; isCredit: boolean }
  | { type: 'consume/insufficient'; seq: number }
  // The caller has its outcome. `unanswered`: its POST was sent and no answer fact closed it (blacklisted, failed).
  | {
      type: 'consume/settled';
      // Absent for a consume that had no start of its own: answered at once (a free period) or refused.
      call?: number;
      externalId: string | null;
      result: BillingConsumeResult | null;
      error: BillingError | null;
      charged: boolean;
      unanswered: boolean;
    }
  | { type: 'freePeriod/ended'; end: number }
  // A free period started elsewhere (another tab, or before a reload), as the milliseconds left at `now`,
  // because monotonic clocks of different pages do not share an origin.
  | { type: 'freePeriod/adopted'; now: number; remainingMs: number }
>;

/** The fact that a consume's caller has its outcome. */
export type ConsumeSettled = Extract<BillingAction, { type: 'consume/settled' }>;
