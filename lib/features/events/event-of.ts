import type { BillingAction } from '../../core/actions';
import type { BillingState } from '../../core/state';
import type { BillingEvent } from '../../shared/billing-event';

/**
 * The events one applied action tells, from the action and the state before
 * and after it (a free period starting or ending is a change of state, not an
 * action of its own). `at` is the scheduler's time of the dispatch. Pure.
 */
export function eventsOf(action: BillingAction, before: BillingState, after: BillingState, at: number): BillingEvent[] {
  const events: object[] = [];
  const add = (type: string, facts?: object) => events.push({ type, at, ...facts });
  const ended = after.freePeriodEnd === null;
  if ((before.freePeriodEnd === null) !== ended) add(ended ? 'freePeriod:ended' : 'freePeriod:started');
  if (action.type === 'usage/loaded') add('usage:loaded');
  if (action.type === 'balance/failed' && !/^(aborted|disposed)$/.test(action.error.code)) {
    add('refresh:failed', { error: action.error });
  }
  if (action.type === 'consume/settled') {
    // Only a consume without a request can lack an id: charged, blacklisted and denied ones have theirs.
    const { result, error, externalId } = action;
    if (error === null) {
      if (result?.isBlacklisted) add('consume:blacklisted', { externalId });
      else if (action.charged) add('consume:charged', { externalId, isCredit: !!result?.isCredit });
      else add('consume:free', { externalId });
    } else if (error.code === 'insufficient_credits') add('consume:denied', { externalId });
    else add('consume:failed', { externalId, error });
  }
  return events as BillingEvent[];
}
