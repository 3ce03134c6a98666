import type { BillingAction } from '../core/actions';
import type { BillingError } from '../errors';
import type { BillingConsumeResult } from '../types';

/** How one consume ended: a failed effect becomes this action, never a dead stream. */
export type ConsumeOutcome =
  { readonly ok: true; readonly result: BillingConsumeResult } | { readonly ok: false; readonly error: BillingError };

/** A consume request on the action stream; `id` pairs it with its reply. */
export interface ConsumeRequested {
  readonly type: 'consume/requested';
  readonly id: number;
  readonly externalId: string;
  readonly signal: AbortSignal | undefined;
  /** A consume left unanswered by an earlier page: always asks the backend, whatever the free period says. */
  readonly replay?: boolean;
}

/**
 * The backend charged for a {@link ConsumeRequested}: from here on the call
 * can only succeed, whatever an abort or `dispose()` does to what follows.
 */
export interface ConsumeCharged {
  readonly type: 'consume/answered';
  readonly id: number;
  readonly result: BillingConsumeResult;
}

/** The reply to a {@link ConsumeRequested}. */
export interface ConsumeSettled {
  readonly type: 'consume/settled';
  readonly id: number;
  readonly outcome: ConsumeOutcome;
}

/** Everything on the engine's action stream: facts for the reducer, requests and replies. */
export type EngineAction = BillingAction | ConsumeRequested | ConsumeCharged | ConsumeSettled;

export function isFact(action: EngineAction): action is BillingAction {
  return action.type !== 'consume/requested' && action.type !== 'consume/answered' && action.type !== 'consume/settled';
}
