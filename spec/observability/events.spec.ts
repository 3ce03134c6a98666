import { config } from 'rxjs';
import * as eventHub from '../../lib/features/events/event-hub';
import {
  billingEvents,
  type BillingEvent,
  type BillingEventOf,
  type BillingEventType,
  type ClientOptions,
} from '../../lib';
import { cleanup, fixture, PATH, type Fixture } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

// Issue 12 item 3, black box: the events of a whole cycle through `createClient`,
// by `onEvent` and by `events$`, on the reference backend in virtual time.

afterEach(() => {
  cleanup();
  jest.restoreAllMocks();
});

const START = 1_000_000;
const FAILED = { status: 500, body: 'down' };

/** Scheduler ms since the clock's start. */
const since = (event: BillingEvent) => ({ ...event, at: event.at - START });

/**
 * Drives one of each consume outcome, a free period starting and ending twice,
 * and a failed balance refresh. Quota: 1 free use, then 2 credits per use.
 */
async function wholeCycle({ client, backend, clock }: Fixture): Promise<void> {
  const billing = client.billing;
  await billing.getUsage(); // usage:loaded at 0
  await billing.consume({ externalId: 'first' }); // charged, free quota; free period starts
  clock.advanceBy(1_000);
  await billing.consume(); // free, no id given
  await billing.consume({ externalId: 'mine' }); // free, the given id
  clock.advanceBy(29_000); // the free period ends at 30 s
  backend.script(PATH.balance, FAILED);
  await billing.consume({ externalId: 'paid' }); // charged with credits; the refresh after it fails
  clock.advanceBy(30_000);
  backend.quota.balance = 1;
  await expect(billing.consume({ externalId: 'short' })).rejects.toMatchObject({ code: 'insufficient_credits' });
  backend.quota.balance = 10;
  backend.quota.blacklisted = true;
  await expect(billing.consume({ externalId: 'banned' })).resolves.toMatchObject({ isBlacklisted: true });
  backend.quota.blacklisted = false;
  backend.script(PATH.consume, FAILED);
  await expect(billing.consume({ externalId: 'broken' })).rejects.toMatchObject({ code: 'http' });
}

const http = expect.objectContaining({ code: 'http', status: 500 });

// Each operation between its start and its end; a consume's end carries its number and its POST's attempts.
const EXPECTED: object[] = [
  { type: 'usage:started', at: 0 },
  { type: 'usage:loaded', at: 0, attempts: 1 },
  { type: 'consume:started', at: 0, call: 1, externalId: 'first' },
  { type: 'freePeriod:started', at: 0 },
  { type: 'consume:charged', at: 0, call: 1, externalId: 'first', attempts: 1, isCredit: false },
  // Answered at once in the free period: no request, so no id unless given; the start is the end.
  { type: 'consume:started', at: 1_000, call: 2, externalId: null },
  { type: 'consume:free', at: 1_000, call: 2, externalId: null, attempts: 0 },
  { type: 'consume:started', at: 1_000, call: 3, externalId: 'mine' },
  { type: 'consume:free', at: 1_000, call: 3, externalId: 'mine', attempts: 0 },
  { type: 'freePeriod:ended', at: 30_000 },
  { type: 'consume:started', at: 30_000, call: 4, externalId: 'paid' },
  { type: 'freePeriod:started', at: 30_000 },
  // The refresh after a credit charge is part of the consume: it ends before the consume does.
  { type: 'refresh:started', at: 30_000 },
  { type: 'refresh:failed', at: 30_000, attempts: 1, error: http },
  { type: 'consume:charged', at: 30_000, call: 4, externalId: 'paid', attempts: 1, isCredit: true },
  { type: 'freePeriod:ended', at: 60_000 },
  { type: 'consume:started', at: 60_000, call: 5, externalId: 'short' },
  { type: 'refresh:started', at: 60_000 },
  { type: 'refresh:loaded', at: 60_000, attempts: 1 },
  { type: 'consume:denied', at: 60_000, call: 5, externalId: 'short', attempts: 1 },
  { type: 'consume:started', at: 60_000, call: 6, externalId: 'banned' },
  { type: 'consume:blacklisted', at: 60_000, call: 6, externalId: 'banned', attempts: 1 },
  { type: 'consume:started', at: 60_000, call: 7, externalId: 'broken' },
  { type: 'consume:failed', at: 60_000, call: 7, externalId: 'broken', attempts: 1, error: http, unanswered: true },
];

// `earlier`: consumes made before the events were heard, which the numbers count.
function expectWholeCycle(events: BillingEvent[], earlier = 0): void {
  // The wall clock beside the scheduler's (the test clock's wall time moves with it).
  const wallOffset = (events[0] as BillingEvent).wallTime - (events[0] as BillingEvent).at;
  expect(events.every((event) => event.wallTime - event.at === wallOffset)).toBe(true);
  const renumbered = EXPECTED.map((event) =>
    'call' in event ? { ...event, call: Number(event.call) + earlier } : event,
  );
  expect(events.map(({ wallTime: _, ...event }) => since(event as BillingEvent))).toEqual(renumbered);
  const failed = events.at(-1) as BillingEventOf<'consume:failed'>;
  expect(failed.error).toMatchObject({ status: 500, externalId: 'broken' });
}

describe('events through a whole cycle', () => {
  it('onEvent hears every outcome, with externalId, isCredit and the scheduler time', async () => {
    const events: BillingEvent[] = [];
    const setup = fixture(
      { freeRemaining: 1, creditsPerUse: 2, balance: 10 },
      { retries: 0, events: billingEvents({ onEvent: (e) => events.push(e) }) },
    );
    await wholeCycle(setup);
    expectWholeCycle(events);
  });

  it('events$ delivers the same events to a subscriber, hot, and completes on dispose', async () => {
    const setup = fixture({ freeRemaining: 1, creditsPerUse: 2, balance: 10 }, { retries: 0, events: billingEvents() });
    await setup.client.billing.consume({ externalId: 'unheard' }); // nobody listens yet: not replayed later
    setup.clock.advanceBy(30_000);
    setup.backend.quota.freeRemaining = 1;
    const events: BillingEvent[] = [];
    let completed = false;
    setup.client.billing.events$.subscribe({ next: (e) => events.push(e), complete: () => (completed = true) });
    await wholeCycle(setup);
    expectWholeCycle(
      events.map((event) => ({ ...event, at: event.at - 30_000 })),
      1,
    );
    setup.client.billing.dispose();
    expect(completed).toBe(true);
  });

  it('a consume that fails without an id given carries the id it was sent with', async () => {
    const events: BillingEvent[] = [];
    const { client, backend } = fixture({}, { retries: 0, events: billingEvents({ onEvent: (e) => events.push(e) }) });
    await client.billing.getUsage();
    backend.script(PATH.consume, FAILED);
    const error: unknown = await client.billing.consume().catch((e: unknown) => e);
    const sent = backend.requests.find((request) => request.path === PATH.consume)?.body as { external_id: string };
    const failed = events.find((event) => event.type === 'consume:failed');
    expect(failed).toMatchObject({ externalId: sent.external_id, error });
    expect(error).toMatchObject({ externalId: sent.external_id });
  });

  it('request:retry counts retries from 1, with the delay armed and the path without the query', async () => {
    const events: BillingEvent[] = [];
    const { client, backend, clock } = fixture(
      {},
      { retries: 2, events: billingEvents({ onEvent: (e) => events.push(e) }) },
    );
    backend.script(PATH.count, FAILED, FAILED);
    const usage = client.billing.getUsage();
    const delays: number[] = [];
    for (let retry = 0; retry < 2; retry++) {
      await settle();
      const due = clock.nextDue();
      expect(due).toBeDefined();
      delays.push((due as number) - clock.now());
      clock.advanceBy((due as number) - clock.now());
    }
    await usage;
    const retries = events.filter((event) => event.type === 'request:retry').map(since);
    const facts = { type: 'request:retry', wallTime: expect.any(Number), path: PATH.count, externalId: null };
    const reason = { code: 'http', status: 500 };
    expect(retries).toEqual([
      { ...facts, ...reason, at: 0, attempt: 1, delayMs: delays[0] },
      { ...facts, ...reason, at: delays[0], attempt: 2, delayMs: delays[1] },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'usage:loaded', attempts: 3 });
  });

  it('every event is frozen and the same object for onEvent and events$', async () => {
    const heard: BillingEvent[] = [];
    const streamed: BillingEvent[] = [];
    const { client } = fixture({}, { events: billingEvents({ onEvent: (e) => heard.push(e) }) });
    client.billing.events$.subscribe((e) => streamed.push(e));
    await client.billing.getUsage();
    await client.billing.consume();
    expect(heard.length).toBeGreaterThan(0);
    expect(streamed).toEqual(heard);
    heard.forEach((event, i) => {
      expect(Object.isFrozen(event)).toBe(true);
      expect(streamed[i]).toBe(event);
    });
  });
});

describe('a throwing onEvent', () => {
  it('never breaks billing and is reported once', async () => {
    const report = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    const { client, backend } = fixture(
      {},
      {
        events: billingEvents({
          onEvent: () => {
            calls++;
            throw new Error('listener bug');
          },
        }),
      },
    );
    await expect(client.billing.getUsage()).resolves.toMatchObject({ freeRemaining: 3 });
    await expect(client.billing.consume({ externalId: 'x' })).resolves.toMatchObject({ isBlacklisted: false });
    await expect(client.billing.consume()).resolves.toEqual({
      freeRemaining: 2,
      isCredit: false,
      isBlacklisted: false,
    });
    expect(backend.charged).toEqual(['x']);
    expect(client.billing.check().reason).toBe('free_period');
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(report).toHaveBeenCalledTimes(1);
  });
});

describe('a throwing events$ subscriber', () => {
  it('goes to RxJS unhandled-error path; the other subscribers and billing go on', async () => {
    const unhandled: unknown[] = [];
    const previous = config.onUnhandledError;
    config.onUnhandledError = (error) => unhandled.push(error);
    try {
      const { client, backend } = fixture({}, { events: billingEvents() });
      client.billing.events$.subscribe(() => {
        throw new Error('panel bug');
      });
      const heard: BillingEventType[] = [];
      client.billing.events$.subscribe((event) => heard.push(event.type));
      await client.billing.getUsage();
      await expect(client.billing.consume({ externalId: 'y' })).resolves.toMatchObject({ isBlacklisted: false });
      expect(heard).toEqual([
        'usage:started',
        'usage:loaded',
        'consume:started',
        'freePeriod:started',
        'consume:charged',
      ]);
      expect(backend.charged).toEqual(['y']);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled.length).toBeGreaterThanOrEqual(1);
    } finally {
      config.onUnhandledError = previous;
    }
  });
});

describe('events cost nothing when unused (white-box: a spy on the hub, which every built event goes to)', () => {
  it('with neither onEvent nor a subscriber no event is built, not even once one has left', async () => {
    const hubs = jest.spyOn(eventHub, 'createEventHub');
    const { client, backend, clock } = fixture({ freeRemaining: 0 }, { retries: 1, events: billingEvents() });
    const emit = jest.spyOn(hubs.mock.results[0]?.value as ReturnType<typeof eventHub.createEventHub>, 'emit');
    const drive = async () => {
      backend.script(PATH.count, FAILED);
      const usage = client.billing.getUsage();
      await settle();
      clock.advanceBy((clock.nextDue() as number) - clock.now());
      await usage;
      await client.billing.consume();
      await client.billing.consume();
      clock.advanceBy(30_000);
      backend.script(PATH.consume, { status: 400, body: 'bad' });
      await client.billing.consume().catch(() => undefined);
    };
    await drive();
    expect(emit).not.toHaveBeenCalled();

    const subscription = client.billing.events$.subscribe();
    await client.billing.getUsage();
    expect(emit).toHaveBeenCalled();
    subscription.unsubscribe();
    emit.mockClear();
    await drive();
    expect(emit).not.toHaveBeenCalled();
  });
});

describe('no event carries a header value (canary)', () => {
  const CANARY = 'canary-7f3a9c1e5b';
  const headerOptions: Array<[string, ClientOptions['headers']]> = [
    ['a record', { Authorization: `Bearer ${CANARY}` }],
    ['a function', async () => ({ Authorization: `Bearer ${CANARY}`, 'X-Api-Key': CANARY })],
  ];

  it.each(headerOptions)('with headers as %s, every event type, errors included, is free of it', async (_, headers) => {
    const events: BillingEvent[] = [];
    let breaking = 0;
    const { client, backend, clock } = fixture(
      { freeRemaining: 1, creditsPerUse: 2, balance: 10 },
      { retries: 1, headers, events: billingEvents({ onEvent: (e) => events.push(e) }) },
    );
    // The network fails quoting the request's headers, as some fetch implementations do.
    backend.pace = async (request, answer) => {
      if (breaking === 0 || answer !== undefined) return;
      breaking--;
      const quoted = JSON.stringify(request.headers);
      throw Object.assign(new TypeError(`fetch failed for ${request.path} with ${quoted}`), {
        cause: Object.assign(new Error(`socket closed: ${quoted}`), { code: 'ECONNRESET', headers: request.headers }),
      });
    };
    const billing = client.billing;
    const retried = async <T>(call: Promise<T>): Promise<T> => {
      await settle();
      clock.advanceBy((clock.nextDue() as number) - clock.now());
      return call;
    };
    await billing.getUsage();
    await billing.consume({ externalId: 'first' });
    await billing.consume();
    clock.advanceBy(30_000);
    backend.script(PATH.balance, FAILED, FAILED); // retried once, then the refresh fails
    await retried(billing.consume({ externalId: 'paid' }));
    clock.advanceBy(30_000);
    backend.quota.balance = 1;
    await billing.consume({ externalId: 'short' }).catch(() => undefined);
    backend.quota.blacklisted = true;
    backend.quota.balance = 10;
    await billing.consume({ externalId: 'banned' });
    // A network failure whose message and cause quote the headers, twice: the consume fails.
    breaking = 2;
    await expect(retried(billing.consume({ externalId: 'lost' }))).rejects.toMatchObject({ code: 'network' });

    const types = new Set(events.map((event) => event.type));
    const all: BillingEventType[] = [
      'usage:started',
      'usage:loaded',
      'consume:started',
      'refresh:started',
      'refresh:loaded',
      'consume:charged',
      'consume:free',
      'consume:blacklisted',
      'consume:denied',
      'consume:failed',
      'request:retry',
      'freePeriod:started',
      'freePeriod:ended',
      'refresh:failed',
    ];
    expect([...types].sort()).toEqual([...all].sort());
    // The canary did reach the wire: the check below is not vacuous.
    expect(JSON.stringify(backend.requests.map((request) => request.headers))).toContain(CANARY);

    for (const event of events) {
      expect(JSON.stringify(event)).not.toContain(CANARY);
      if ('error' in event) {
        const { error } = event;
        const cause = (error as { cause?: unknown }).cause;
        const seen = [
          error.message,
          String(error.stack),
          JSON.stringify(error),
          JSON.stringify(error.toJSON()),
          String(cause),
          cause instanceof Error ? `${cause.message} ${String(cause.stack)} ${JSON.stringify(cause)}` : '',
          JSON.stringify(Object.getOwnPropertyDescriptors(error)),
        ].join('\n');
        expect(seen).not.toContain(CANARY);
      }
    }
    expect(events.some((event) => event.type === 'consume:failed' && event.error.code === 'network')).toBe(true);
  });
});

describe('events$ without the events feature (issue 24)', () => {
  it('never emits, warns once per client in development naming billingEvents(), and completes on dispose', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { client } = fixture({ freeRemaining: 1 });
    const heard: BillingEvent[] = [];
    let completed = 0;
    const listen = () =>
      client.billing.events$.subscribe({ next: (event) => heard.push(event), complete: () => completed++ });
    listen();
    listen();
    await client.billing.getUsage();
    await client.billing.consume();
    expect(heard).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('events: billingEvents()');
    // Another client says it again: the warning is per client.
    const other = fixture();
    other.client.billing.events$.subscribe();
    expect(warn).toHaveBeenCalledTimes(2);
    client.billing.dispose();
    expect(completed).toBe(2);
  });

  it('stays silent with the feature installed, and where nobody subscribes', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    fixture({}, { events: billingEvents() }).client.billing.events$.subscribe();
    fixture();
    expect(warn).not.toHaveBeenCalled();
  });
});
