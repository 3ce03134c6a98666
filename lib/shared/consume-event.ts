import type { BillingError } from './errors';
import type { ConsumeOutcome } from './types';

/**
 * The events of one consume, from its start to its end, and of a replay (a
 * consume another page left unanswered, sent again here): the `consume:*`,
 * `lock:acquired` and `replay:*` members of {@link BillingEvent}, which says
 * what each carries.
 *
 * @example
 * ```ts
 * const ended = (event: ConsumeEvent) => event.type !== 'consume:started' && event.type !== 'lock:acquired';
 * ```
 */
export type ConsumeEvent =
  | {
      readonly type: 'consume:started';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string | null;
    }
  | { readonly type: 'lock:acquired'; readonly at: number; readonly wallTime: number; readonly call: number }
  | {
      readonly type: 'consume:charged';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string;
      readonly attempts: number;
      readonly isCredit: boolean;
    }
  | {
      readonly type: 'consume:free';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string | null;
      readonly attempts: number;
    }
  | {
      readonly type: 'consume:blacklisted';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string;
      readonly attempts: number;
    }
  | {
      readonly type: 'consume:denied';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string;
      readonly attempts: number;
    }
  | {
      readonly type: 'consume:failed';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string | null;
      readonly attempts: number;
      readonly error: BillingError;
      readonly unanswered: boolean;
    }
  | {
      readonly type: 'consume:canceled';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string | null;
      readonly attempts: number;
      readonly reason: 'aborted' | 'disposed';
      readonly unanswered: boolean;
    }
  | {
      readonly type: 'replay:started';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string;
      readonly origin: 'reload' | 'tab';
    }
  | {
      readonly type: 'replay:settled';
      readonly at: number;
      readonly wallTime: number;
      readonly call: number;
      readonly externalId: string;
      readonly attempts: number;
      readonly origin: 'reload' | 'tab';
      readonly outcome: ConsumeOutcome;
    }
  | {
      readonly type: 'consume:recovered';
      readonly at: number;
      readonly wallTime: number;
      readonly externalId: string;
      readonly outcome: ConsumeOutcome;
    };
