import type { DevtoolsConnection, DevtoolsHook, DevtoolsState } from '../../lib';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';

// Issue 19 item 2, the engine's side (seam S4): connect once, send after every applied action, close on dispose.

afterEach(cleanup);

const CANARY = 'canary-0b8e4f2a';

interface Seen {
  connected: Array<[string, DevtoolsState]>;
  sent: Array<[{ type: string } & Record<string, unknown>, DevtoolsState]>;
  closed: number;
}

function recordingHook(): { hook: DevtoolsHook; seen: Seen } {
  const seen: Seen = { connected: [], sent: [], closed: 0 };
  const connection: DevtoolsConnection = {
    send: (action, state) => seen.sent.push([action, state]),
    close: () => (seen.closed += 1),
  };
  return { hook: { connect: (scope, initial) => (seen.connected.push([scope, initial]), connection) }, seen };
}

describe('the devtools hook', () => {
  it('connects once with the scope and the initial state, sends each action with the state it left, JSON-safe', async () => {
    const { hook, seen } = recordingHook();
    const { client } = fixture(
      { freeRemaining: 1, balance: 10, creditsPerUse: 2 },
      { devtools: hook, retries: 0, headers: { Authorization: `Bearer ${CANARY}` }, scope: 'user-1' },
    );
    expect(seen.connected).toEqual([
      ['user-1', { usage: null, status: client.billing.getStatus(), freePeriodEndsAt: null }],
    ]);
    await client.billing.getUsage();
    await client.billing.consume({ externalId: 'op-1' });
    await client.billing.consume({ externalId: 'op-2' });
    expect(seen.sent.map(([action]) => action.type)).toEqual([
      'usage/started',
      'usage/loaded',
      'consume/sent',
      'consume/charged',
      'consume/settled',
      'consume/settled', // op-2 fell in the free period: no request
    ]);
    const [, last] = seen.sent[seen.sent.length - 1] as [unknown, DevtoolsState];
    expect(last.usage).toMatchObject({ freeRemaining: 0, inFreePeriod: true });
    expect(typeof last.freePeriodEndsAt).toBe('number');
    expect(JSON.parse(JSON.stringify(seen.sent))).toEqual(seen.sent);
    expect(JSON.stringify(seen)).not.toContain(CANARY);
  });

  it('sends an error as { code, message } and never a header value, even one the backend echoed', async () => {
    const { hook, seen } = recordingHook();
    const { client, backend } = fixture(
      {},
      { devtools: hook, retries: 0, headers: { Authorization: `Bearer ${CANARY}` } },
    );
    backend.script(PATH.count, {
      status: 500,
      body: JSON.stringify({ code: 500, message: `bad token ${CANARY}`, data: null }),
    });
    await client.billing.getUsage().catch(() => undefined);
    const failed = seen.sent.find(([action]) => action.type === 'usage/failed');
    expect(failed?.[0]['error']).toEqual({ code: 'http', message: expect.any(String) });
    expect(failed?.[1].status.error).toEqual({ code: 'http', message: expect.any(String) });
    expect(JSON.stringify(seen)).not.toContain(CANARY);
  });

  it('closes on dispose and sends nothing after; a hook that throws or gives null breaks nothing', async () => {
    const { hook, seen } = recordingHook();
    const { client } = fixture({}, { devtools: hook });
    client.billing.dispose();
    expect(seen.closed).toBe(1);
    const before = seen.sent.length;
    await client.billing.getUsage().catch(() => undefined);
    expect(seen.sent.length).toBe(before);

    const none = fixture({}, { devtools: { connect: () => null } });
    await expect(none.client.billing.getUsage()).resolves.toBeDefined();
    const throwing = fixture(
      {},
      {
        devtools: {
          connect: () => ({
            send: () => {
              throw new Error('panel gone');
            },
            close: () => undefined,
          }),
        },
      },
    );
    await expect(throwing.client.billing.getUsage()).resolves.toBeDefined();
  });
});
