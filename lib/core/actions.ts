import type { Quota } from './state';

/**
 * Every fact the reducer learns, as a discriminated union on `type`. Time and
 * request sequence numbers arrive inside the actions: the reducer reads no clock.
 * `sentAt` (scheduler time the answered request went out) is for tab sync, which
 * ranks what tabs share by when it was asked; the reducer does not read it.
 */
export type BillingAction =
  // `seq` numbers the free-count request; `balanceSeq`, where it differs, the balance request of the pair.
  | {
      readonly type: 'usage/loaded';
      readonly seq: number;
      readonly balanceSeq?: number;
      readonly quota: Quota;
      readonly sentAt?: number;
      readonly balanceSentAt?: number;
    }
  | { readonly type: 'balance/loaded'; readonly seq: number; readonly balance: number; readonly sentAt?: number }
  | {
      readonly type: 'consume/charged';
      readonly seq: number;
      readonly now: number;
      readonly freeRemaining: number;
      readonly isCredit: boolean;
      readonly sentAt?: number;
    }
  | { readonly type: 'consume/insufficient'; readonly seq: number; readonly sentAt?: number }
  | { readonly type: 'freePeriod/ended'; readonly end: number }
  // A free period started elsewhere (another tab, or before a reload), as the milliseconds left at `now`,
  // because monotonic clocks of different pages do not share an origin.
  | { readonly type: 'freePeriod/adopted'; readonly now: number; readonly remainingMs: number }
  // Another tab's state in one action (one change for listeners): its quota, which the reducer ranks
  // just above the newest answer applied (below any local request in flight), and its free period as
  // in `freePeriod/adopted`, measured when the message was handled.
  | {
      readonly type: 'tab/shared';
      readonly quota: Quota | null;
      /** Which field groups of `quota` are newer than this tab's (the other tab's ages them apart); both if absent. */
      readonly fresh?: { readonly free: boolean; readonly balance: boolean };
      readonly now: number;
      readonly remainingMs: number;
    };
