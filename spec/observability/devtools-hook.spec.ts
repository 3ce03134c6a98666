import { reduxDevtools } from '../../lib/devtools';
import { fakeExtension } from '../devtools/fake-extension';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';

// Issue 19 item 2, the client's side: the `devtools` feature connects once as the client is
// created, sends every applied action with the state it left, and closes on dispose.

afterEach(cleanup);

const CANARY = 'canary-0b8e4f2a';

describe('the devtools option', () => {
  it('connects once with the scope and the initial state, sends each action with the state it left, JSON-safe', async () => {
    const { extension, log } = fakeExtension();
    const { client } = fixture(
      { freeRemaining: 1, balance: 10, creditsPerUse: 2 },
      {
        devtools: reduxDevtools({ extension }),
        retries: 0,
        headers: { Authorization: `Bearer ${CANARY}` },
        scope: 'user-1',
      },
    );
    expect(log.connects.map((options) => options.name)).toEqual(['unified-billing:user-1']);
    expect(log.messages).toEqual([
      {
        kind: 'init',
        state: {
          usage: null,
          status: { loaded: false, loading: false, fetchedAt: null, pending: 0, error: null },
          freePeriodEndsAt: null,
        },
      },
    ]);
    await client.billing.getUsage();
    await client.billing.consume({ externalId: 'op-1' });
    await client.billing.consume({ externalId: 'op-2' });
    const sent = log.messages.flatMap((message) => (message.kind === 'send' ? [message] : []));
    expect(sent.map(({ action }) => action.type)).toEqual([
      'usage/started',
      'usage/loaded',
      'consume/started',
      'consume/sent',
      'consume/charged',
      'consume/settled',
      'consume/settled', // op-2 fell in the free period: no request
    ]);
    const last = sent.at(-1)?.state as { usage: object; freePeriodEndsAt: unknown };
    expect(last.usage).toMatchObject({ freeRemaining: 0, inFreePeriod: true });
    expect(typeof last.freePeriodEndsAt).toBe('number');
    expect(JSON.parse(JSON.stringify(log.messages))).toEqual(log.messages);
    expect(JSON.stringify(log)).not.toContain(CANARY);
  });

  it('sends an error as its code and status, never its message nor a header value the backend echoed', async () => {
    const { extension, log } = fakeExtension();
    const { client, backend } = fixture(
      {},
      { devtools: reduxDevtools({ extension }), retries: 0, headers: { Authorization: `Bearer ${CANARY}` } },
    );
    backend.script(PATH.count, {
      status: 500,
      body: JSON.stringify({ code: 500, message: `bad token ${CANARY}`, data: null }),
    });
    await client.billing.getUsage().catch(() => undefined);
    const failed = log.messages.find((message) => message.kind === 'send' && message.action.type === 'usage/failed');
    expect(failed).toMatchObject({
      action: { error: { code: 'http', status: 500 } },
      state: { status: { error: { code: 'http', status: 500 } } },
    });
    expect(JSON.stringify(log)).not.toContain(CANARY);
  });

  it('closes on dispose and sends nothing after; an extension that throws or refuses breaks nothing', async () => {
    const { extension, log } = fakeExtension();
    const { client } = fixture({}, { devtools: reduxDevtools({ extension }) });
    client.billing.dispose();
    expect(log.unsubscribed).toBe(1);
    const before = log.messages.length;
    await client.billing.getUsage().catch(() => undefined);
    expect(log.messages.length).toBe(before);

    // The throws are counted: the client did call into the broken extension, and went on.
    const thrown = { connect: 0, send: 0 };
    const refusing = fixture(
      {},
      {
        devtools: reduxDevtools({
          extension: {
            connect: () => {
              thrown.connect += 1;
              throw new Error('no');
            },
          },
        }),
      },
    );
    expect(thrown.connect).toBe(1);
    await expect(refusing.client.billing.getUsage()).resolves.toMatchObject({ freeRemaining: 3, creditsBalance: 10 });
    const throwing = fixture(
      {},
      {
        devtools: reduxDevtools({
          extension: {
            connect: () => ({
              init: () => undefined,
              send: () => {
                thrown.send += 1;
                throw new Error('panel gone');
              },
            }),
          },
        }),
      },
    );
    await expect(throwing.client.billing.getUsage()).resolves.toMatchObject({ freeRemaining: 3, creditsBalance: 10 });
    const sends = thrown.send;
    expect(sends).toBeGreaterThan(0);
    await expect(throwing.client.billing.consume()).resolves.toEqual({
      freeRemaining: 2,
      isCredit: false,
      isBlacklisted: false,
    });
    expect(thrown.send).toBeGreaterThan(sends);
    expect(throwing.backend.charged).toHaveLength(1);
  });
});
