import type { Quota } from './state';

/**
 * Every fact the reducer learns, as a discriminated union on `type`. Time and
 * request sequence numbers arrive inside the actions: the reducer reads no clock.
 */
export type BillingAction =
  | { readonly type: 'usage/loaded'; readonly seq: number; readonly quota: Quota }
  | { readonly type: 'balance/loaded'; readonly seq: number; readonly balance: number }
  | {
      readonly type: 'consume/charged';
      readonly seq: number;
      readonly now: number;
      readonly freeRemaining: number;
      readonly isCredit: boolean;
    }
  | { readonly type: 'consume/insufficient'; readonly seq: number }
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
      readonly now: number;
      readonly remainingMs: number;
    };
