import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import type { BillingEvent } from './billing-event';

/**
 * The events one applied action tells, from the action and the state before
 * and after it (a free period starting or ending is a change of state, not an
 * action of its own). `at` is the scheduler's time of the dispatch. Pure.
 */
export function eventsOf(action: BillingAction, before: BillingState, after: BillingState, at: number): BillingEvent[] {
  const events: BillingEvent[] = [];
  if ((before.freePeriodEnd === null) !== (after.freePeriodEnd === null)) {
    events.push({ type: after.freePeriodEnd === null ? 'freePeriod:ended' : 'freePeriod:started', at });
  }
  if (action.type === 'usage/loaded') events.push({ type: 'usage:loaded', at });
  if (action.type === 'balance/failed' && action.error.code !== 'aborted' && action.error.code !== 'disposed') {
    events.push({ type: 'refresh:failed', at, error: action.error });
  }
  if (action.type === 'consume/settled') {
    const { externalId, result, error } = action;
    const id = externalId ?? '';
    if (error !== null) {
      if (error.code === 'insufficient_credits') events.push({ type: 'consume:denied', at, externalId: id });
      else events.push({ type: 'consume:failed', at, externalId, error });
    } else if (result?.isBlacklisted) events.push({ type: 'consume:blacklisted', at, externalId: id });
    else if (action.charged) events.push({ type: 'consume:charged', at, externalId: id, isCredit: !!result?.isCredit });
    else events.push({ type: 'consume:free', at, externalId });
  }
  return events;
}
