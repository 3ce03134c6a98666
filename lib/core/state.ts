/** The quota as last learned from the backend, without the free-period fields. */
export interface Quota {
  readonly isEnabled: boolean;
  readonly freeRemaining: number;
  readonly freeTotal: number;
  readonly creditsPerUse: number;
  readonly creditsBalance: number;
}

/**
 * Everything the client knows. `freePeriodEnd` is the spec's `_freePeriodEnd`,
 * in milliseconds of the injected scheduler's clock.
 */
export interface BillingState {
  readonly quota: Quota | null;
  readonly freePeriodEnd: number | null;
  // Sequence numbers of the newest request whose answer was applied, per
  // field group, so a late answer to an older request never overwrites a newer one.
  readonly freeSeq: number;
  readonly balanceSeq: number;
}

export const initialState: BillingState = {
  quota: null,
  freePeriodEnd: null,
  freeSeq: 0,
  balanceSeq: 0,
};

/** Length of the free period after a charged consume. */
export const FREE_PERIOD_MS = 30_000;
