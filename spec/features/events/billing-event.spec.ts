import { BillingError } from '../../../lib/shared/errors';
import type { BillingEvent, BillingEventOf, BillingEventType } from '../../../lib/shared/billing-event';

// A telemetry line per event, as an app would write it: the switch must be
// exhaustive, so a new event type fails the type check here first.
function line(event: BillingEvent): string {
  switch (event.type) {
    case 'usage:started':
    case 'refresh:started':
    case 'freePeriod:started':
    case 'freePeriod:ended':
      return `${event.type} @${event.at}`;
    case 'usage:loaded':
    case 'refresh:loaded':
      return `${event.type} after ${event.attempts}`;
    case 'consume:started':
    case 'lock:acquired':
      return `${event.type} #${event.call}`;
    case 'consume:charged':
      return `${event.type} ${event.externalId} credit=${event.isCredit}`;
    case 'consume:free':
    case 'consume:blacklisted':
    case 'consume:denied':
      return `${event.type} ${event.externalId}`;
    case 'consume:failed':
    case 'usage:failed':
    case 'refresh:failed':
      return `${event.type} ${event.error.code}`;
    case 'consume:canceled':
    case 'usage:canceled':
    case 'refresh:canceled':
      return `${event.type} ${event.reason}`;
    case 'replay:started':
      return `${event.type} ${event.origin} ${event.externalId}`;
    case 'replay:settled':
    case 'consume:recovered':
      return `${event.type} ${event.externalId} ${event.outcome.ok ? 'ok' : event.outcome.error.code}`;
    case 'request:retry':
      return `${event.type} ${event.path} #${event.attempt} in ${event.delayMs}ms (${event.status ?? event.code})`;
    case 'request:unauthorized':
      return `${event.type} ${event.path}`;
    default: {
      const never: never = event;
      return never;
    }
  }
}

describe('BillingEvent', () => {
  it('narrows on type to the fields of the issue table', () => {
    const retry: BillingEventOf<'request:retry'> = {
      type: 'request:retry',
      at: 5,
      wallTime: 1_700_000_000_005,
      attempt: 1,
      delayMs: 250,
      path: '/ai/v1/credit/getBalance',
      externalId: null,
      code: 'http',
      status: 503,
    };
    const times = { wallTime: 1_700_000_000_000 };
    const events: BillingEvent[] = [
      retry,
      { type: 'consume:charged', at: 1, ...times, call: 1, externalId: 'a', attempts: 1, isCredit: true },
      { type: 'consume:free', at: 2, ...times, call: 2, externalId: null, attempts: 0 },
      { type: 'refresh:failed', at: 3, ...times, attempts: 2, error: new BillingError('timeout', 'timed out') },
    ];
    expect(events.map(line)).toEqual([
      'request:retry /ai/v1/credit/getBalance #1 in 250ms (503)',
      'consume:charged a credit=true',
      'consume:free null',
      'refresh:failed timeout',
    ]);
    const types: BillingEventType[] = events.map((event) => event.type);
    expect(types).toHaveLength(4);
    // @ts-expect-error a charge must say whether it took credits
    const missing: BillingEvent = { type: 'consume:charged', at: 1, ...times, call: 1, externalId: 'a', attempts: 1 };
    expect(missing.type).toBe('consume:charged');
  });

  it('has one member per type, each with its own fields, all read-only', () => {
    const denied: BillingEventOf<'consume:denied'> = {
      type: 'consume:denied',
      ...{ at: 1, wallTime: 1_700_000_000_001 },
      ...{ call: 3, externalId: 'a', attempts: 1 },
    };
    // @ts-expect-error a denied consume was sent, so it has its id
    const withoutId: BillingEventOf<'consume:denied'> = { ...denied, externalId: null };
    // @ts-expect-error an event is read-only
    denied.attempts = 2;
    const failed: Array<BillingEventOf<'usage:failed' | 'refresh:failed'>['type']> = ['usage:failed', 'refresh:failed'];
    expect([denied.attempts, withoutId.externalId, failed]).toEqual([2, null, ['usage:failed', 'refresh:failed']]);
  });
});
