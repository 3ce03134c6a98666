import { billingEvents, BillingError, createClient, refetchOn } from '../../lib';
import { BASE_URL, UserBackend } from '../helpers/client-fixture';
import { byMode } from '../helpers/mode';

// What plain JavaScript (or options built in a variable) passes: no type to catch a typo.
function errorOf(options: Record<string, unknown>): BillingError {
  try {
    const client = createClient({ baseUrl: BASE_URL, appKey: 'poster', ...options } as never);
    client.billing.dispose();
  } catch (error) {
    return error as BillingError;
  }
  throw new Error('createClient accepted the options');
}

// What createClient threw, or 'accepted'.
function outcomeOf(options: Record<string, unknown>): unknown {
  try {
    createClient({ baseUrl: BASE_URL, appKey: 'poster', ...options } as never).billing.dispose();
    return 'accepted';
  } catch (error) {
    return error;
  }
}

// In development an invalid_argument BillingError whose message contains `message`; in production accepted.
const refusedAs = (message: string) =>
  byMode(expect.objectContaining({ code: 'invalid_argument', message: expect.stringContaining(message) }), 'accepted');

// Development only (issue 24): a production build leaves names to TypeScript and ignores unknown ones.
describe('createClient() refuses unknown option names, naming the nearest valid one (issue 18.7)', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['timeout', { timeout: 5_000 }, 'unknown option "timeout" (did you mean "timeoutMs"?)'],
    ['retry', { retry: 3 }, 'unknown option "retry" (did you mean "retries"?)'],
    ['header', { header: { Authorization: 'Bearer t' } }, 'unknown option "header" (did you mean "headers"?)'],
    ['baseURL', { baseURL: BASE_URL }, 'unknown option "baseURL" (did you mean "baseUrl"?)'],
    ['onevent', { onevent: () => undefined }, 'unknown option "onevent" (did you mean "events"?)'],
    ['refetchon', { refetchon: refetchOn({}) }, 'unknown option "refetchon" (did you mean "refetch"?)'],
  ])('%s', (_name, options, message) => {
    const outcome = outcomeOf(options);
    expect(outcome).toEqual(refusedAs(message));
    expect(outcome === 'accepted' || outcome instanceof BillingError).toBe(true);
  });

  it('names every unknown option at once', () => {
    expect(outcomeOf({ timeout: 1, retry: 1 })).toEqual(
      refusedAs('unknown options "timeout" (did you mean "timeoutMs"?), "retry" (did you mean "retries"?)'),
    );
  });

  it('lists the valid options when no name is close', () => {
    const outcome = outcomeOf({ colour: 'red' });
    expect(outcome).toEqual(refusedAs('unknown option "colour"; the options are baseUrl, appKey, headers,'));
    expect(String((outcome as Error).message)).not.toContain('did you mean');
  });

  it('accepts every option the README documents, and bootstrap and devtools', () => {
    const make = () =>
      createClient({
        baseUrl: BASE_URL,
        appKey: 'poster',
        headers: {},
        fetch: new UserBackend().fetch,
        timeoutMs: 1_000,
        retries: 0,
        scope: 'user-1',
        refetch: refetchOn({ focus: false, online: false }),
        events: billingEvents({ onEvent: () => undefined }),
        onUnauthorized: () => undefined,
        storage: undefined,
        sync: undefined,
        scheduler: undefined,
        bootstrap: null,
        devtools: undefined,
      } as never).billing.dispose();
    expect(make).not.toThrow();
  });
});

describe('createClient() says which option value was wrong (issue 18.7)', () => {
  // In a production build (issue 24) the same code, with the option's name only.
  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a refetch that is not a feature',
      { refetch: true },
      'refetch must be made by refetchOn() (got true)',
      'invalid refetch',
    ],
    [
      'another feature as refetch',
      { refetch: billingEvents() },
      'refetch must be made by refetchOn() (got an object)',
      'invalid refetch',
    ],
    [
      'events made by hand',
      { events: () => undefined },
      'events must be made by billingEvents() (got a function)',
      'invalid events',
    ],
    [
      'a string timeoutMs',
      { timeoutMs: '5000' },
      'timeoutMs must be an integer from 1 to 600000 (got a string)',
      'invalid timeoutMs',
    ],
    ['fractional retries', { retries: 1.5 }, 'retries must be an integer from 0 to 10 (got 1.5)', 'invalid retries'],
    ['a sync made by hand', { sync: true }, 'sync must be made by tabSync() (got true)', 'invalid sync'],
  ])('%s', (_name, options, message, production) => {
    const error = errorOf(options);
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toBe(byMode(message, production));
  });

  it('never echoes a string value: it may be a credential', () => {
    const { message } = errorOf({ timeoutMs: 'Bearer s3cret-token', scope: undefined });
    expect(message).toBe(byMode('timeoutMs must be an integer from 1 to 600000 (got a string)', 'invalid timeoutMs'));
  });
});

describe('createClient() refuses the option shapes of 0.1, naming the new way (issue 24)', () => {
  // The suggestion does what the object asked, no more: copying it changes no behaviour.
  const refetch = (call: string) =>
    byMode(`refetch takes refetchOn() since 0.2.0: write refetch: ${call}`, 'invalid refetch');
  const EVENTS = 'onEvent moved to the events feature in 0.2.0: write events: billingEvents({ onEvent })';
  const onEvent = (got: string) => byMode(`${EVENTS} (got ${got})`, 'invalid onEvent');
  it.each<[string, Record<string, unknown>, string]>([
    [
      'refetch: { onFocus, onOnline }',
      { refetch: { onFocus: true, onOnline: true } },
      refetch('refetchOn({ focus: true, online: true })'),
    ],
    ['refetch: { onFocus } alone', { refetch: { onFocus: true } }, refetch('refetchOn({ focus: true })')],
    [
      'refetch: { onOnline: false, intervalMs }',
      { refetch: { onOnline: false, intervalMs: 60_000 } },
      refetch('refetchOn({ online: false, intervalMs: 60000 })'),
    ],
    ['refetch: { intervalMs }', { refetch: { intervalMs: 60_000 } }, refetch('refetchOn({ intervalMs: 60000 })')],
    ['refetch: {}', { refetch: {} }, refetch('refetchOn({})')],
    ['a misspelled refetch object', { refetch: { onfocus: true } }, refetch('refetchOn({ onfocus: true })')],
    [
      'a string field (never echoed: it shows by name)',
      { refetch: { intervalMs: 'Bearer s3cret' } },
      refetch('refetchOn({ intervalMs })'),
    ],
    ['onEvent', { onEvent: () => undefined }, onEvent('a function')],
    ['onEvent beside events', { onEvent: () => undefined, events: billingEvents() }, onEvent('a function')],
    ['an onEvent that is not a function', { onEvent: {} }, onEvent('an object')],
  ])('%s', (_name, options, message) => {
    const error = errorOf(options);
    expect(error).toBeInstanceOf(BillingError);
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toBe(message);
  });
});
