import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import type { BillingEvent } from './billing-event';

/**
 * The events one applied action tells, from the action and the state before
 * and after it (a free period starting or ending is a change of state, not an
 * action of its own). `at` is the scheduler's time of the dispatch. Pure.
 */
export function eventsOf(action: BillingAction, before: BillingState, after: BillingState, at: number): BillingEvent[] {
  const events = [] as unknown as Array<Record<string, unknown>>;
  const ended = after.freePeriodEnd === null;
  if ((before.freePeriodEnd === null) !== ended)
    events.push({ type: ended ? 'freePeriod:ended' : 'freePeriod:started' });
  if (action.type === 'usage/loaded') events.push({ type: 'usage:loaded' });
  if (action.type === 'balance/failed' && action.error.code !== 'aborted' && action.error.code !== 'disposed') {
    events.push({ type: 'refresh:failed', error: action.error });
  }
  if (action.type === 'consume/settled') {
    const { result, error } = action;
    const externalId = action.externalId ?? '';
    events.push(
      error !== null
        ? error.code === 'insufficient_credits'
          ? { type: 'consume:denied', externalId }
          : { type: 'consume:failed', externalId: action.externalId, error }
        : result?.isBlacklisted
          ? { type: 'consume:blacklisted', externalId }
          : action.charged
            ? { type: 'consume:charged', externalId, isCredit: !!result?.isCredit }
            : { type: 'consume:free', externalId: action.externalId },
    );
  }
  for (const event of events) event.at = at;
  return events as unknown as BillingEvent[];
}
