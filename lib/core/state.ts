import { initialStatus, type BillingStatus } from '../shared/billing-status';
import type { QuotaFields } from '../shared/types';

/** The quota as last learned from the backend, without the free-period fields. */
export type Quota = QuotaFields;

/**
 * Everything the client knows. `freePeriodEnd` is the spec's `_freePeriodEnd`,
 * in milliseconds of the injected scheduler's clock.
 */
export interface BillingState {
  /** What `getCachedUsage()` shows; `null` until the first usage answer. */
  readonly quota: Quota | null;
  readonly freePeriodEnd: number | null;
  // Sequence number of the newest request whose answer set the free count, so a
  // late answer to an older request never overwrites a newer one.
  readonly freeSeq: number;
  /** A free count answered (by a charge or a refusal) before the first usage answer, to lay over it. */
  readonly earlyFree: number | null;
  /** The balance as a ledger; `quota.creditsBalance` is derived from it. See {@link BalanceLedger}. */
  readonly ledger: BalanceLedger;
  /** What `getStatus()` shows: the same object while nothing in it changed. */
  readonly status: BillingStatus;
  /** Usage fetches of this client in flight. */
  readonly fetches: number;
  /** The call whose failure `status.error` is, so only its success clears it. */
  readonly failed: 'usage' | 'refresh' | 'consume' | null;
}

/**
 * The newest balance answer (of a balance or usage request) and the credit
 * charges answered for requests sent after it: the cached balance is that
 * answer minus the price per charge, whatever order the answers arrived in.
 */
export interface BalanceLedger {
  readonly balance: number | null;
  /** Sequence number of the request that answered `balance`; 0 before any. */
  readonly seq: number;
  /** Sequence numbers of the credit charges newer than `seq`. */
  readonly debits: readonly number[];
}

export const initialState: BillingState = {
  quota: null,
  freePeriodEnd: null,
  freeSeq: 0,
  earlyFree: null,
  ledger: { balance: null, seq: 0, debits: [] },
  status: initialStatus,
  fetches: 0,
  failed: null,
};

/** Length of the free period after a charged consume. */
export const FREE_PERIOD_MS = 30_000;
