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
  | { readonly type: 'freePeriod/ended'; readonly end: number };
