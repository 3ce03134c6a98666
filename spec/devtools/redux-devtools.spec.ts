import { BillingError } from '../../lib';
import { reduxDevtools } from '../../lib/devtools';
import { safeAction, safeState } from '../../lib/devtools/json-safe';
import { cleanup, fixture } from '../helpers/client-fixture';
import { fakeExtension } from './fake-extension';

// reduxDevtools() against a fake extension, through createClient's `devtools` option.
const TOKEN = 'sk_live_Secret-Token-42';

const global = globalThis as { __REDUX_DEVTOOLS_EXTENSION__?: unknown };
afterEach(() => {
  delete global.__REDUX_DEVTOOLS_EXTENSION__;
  cleanup();
});

// The fixture's default quota, as getUsage() gives it.
const USAGE = {
  isEnabled: true,
  freeRemaining: 3,
  freeTotal: 5,
  creditsPerUse: 2,
  creditsBalance: 10,
  inFreePeriod: false,
  freePeriodRemaining: 0,
};

const initialState = {
  usage: null,
  status: { loaded: false, loading: false, fetchedAt: null, pending: 0, error: null },
  freePeriodEndsAt: null,
};

describe('reduxDevtools()', () => {
  it('without an extension: the client works and nothing throws', async () => {
    for (const devtools of [reduxDevtools(), reduxDevtools({ extension: null })]) {
      const { client } = fixture({}, { devtools });
      await expect(client.billing.consume()).resolves.toEqual({
        freeRemaining: 2,
        isCredit: false,
        isBlacklisted: false,
      });
    }
  });

  it('finds globalThis.__REDUX_DEVTOOLS_EXTENSION__, names the instance after the scope, then sends the state', () => {
    const { extension, log } = fakeExtension();
    global.__REDUX_DEVTOOLS_EXTENSION__ = extension;
    fixture({}, { devtools: reduxDevtools(), scope: 'generator_app' });
    expect(log.connects.map((options) => options.name)).toEqual(['unified-billing:generator_app']);
    expect(log.messages).toEqual([{ kind: 'init', state: initialState }]);
  });

  it('takes a name and an extension given as options', () => {
    const { extension, log } = fakeExtension();
    fixture({}, { devtools: reduxDevtools({ name: 'billing (Alice)', extension }) });
    expect(log.connects.map((options) => options.name)).toEqual(['billing (Alice)']);
  });

  it('sends each action with the state after it, as plain JSON', async () => {
    const { extension, log } = fakeExtension();
    const { client } = fixture({ freeRemaining: 3, balance: 10 }, { devtools: reduxDevtools({ extension }) });
    await client.billing.getUsage();
    const sent = log.messages.filter((message) => message.kind === 'send');
    expect(sent.map((message) => message.kind === 'send' && message.action)).toEqual([
      { type: 'usage/started' },
      expect.objectContaining({ type: 'usage/loaded', quota: expect.objectContaining({ freeRemaining: 3 }) }),
    ]);
    expect(sent[1]?.state).toEqual({
      usage: expect.objectContaining({ freeRemaining: 3, creditsBalance: 10, inFreePeriod: false }),
      status: expect.objectContaining({ loaded: true, error: null }),
      freePeriodEndsAt: null,
    });
    expect(JSON.parse(JSON.stringify(log.messages))).toEqual(log.messages);
  });

  it('whitelists: never a header value or a token, even one the backend echoed into an error', () => {
    const echoed = new BillingError('http', `HTTP 401: bad token ${TOKEN}`, { status: 401 });
    const action = safeAction({
      type: 'usage/failed',
      error: echoed,
      headers: { Authorization: `Bearer ${TOKEN}` },
      token: TOKEN,
      externalId: TOKEN,
      [`Bearer ${TOKEN}`]: 1,
      note: `Bearer ${TOKEN}`,
      fn: () => TOKEN,
    } as { type: string });
    const state = safeState({ ...initialState, status: { ...initialState.status, error: echoed } });
    const text = JSON.stringify([action, state]);
    expect(text).not.toContain('Secret');
    expect(text).not.toContain('Bearer');
    expect(action).toEqual({ type: 'usage/failed', error: { code: 'http', status: 401 }, headers: {} });
    expect(state).toMatchObject({ status: { error: { code: 'http', status: 401 } } });
  });

  it('is read-only: it never listens to the extension, and its UI offers no time travel', async () => {
    const { extension, log } = fakeExtension();
    const { client } = fixture({}, { devtools: reduxDevtools({ extension }) });
    log.dispatchBack({ type: 'DISPATCH', payload: { type: 'JUMP_TO_STATE' }, state: '{"usage":null}' });
    await client.credits.getBalance();
    expect(log.subscribed).toBe(0);
    // The extension enables only the features set to true.
    expect(log.connects[0]?.features).toEqual({ pause: true, export: true });
    // The balance request's start and its answer, each sent as it is applied.
    expect(log.messages.map((message) => message.kind)).toEqual(['init', 'send', 'send']);
  });

  it('dispose() unsubscribes once, and nothing is sent after it', async () => {
    const { extension, log } = fakeExtension();
    const { client } = fixture({}, { devtools: reduxDevtools({ extension }) });
    client.billing.dispose();
    client.billing.dispose();
    await client.credits.getBalance().catch(() => undefined);
    expect(log.unsubscribed).toBe(1);
    expect(log.messages.map((message) => message.kind)).toEqual(['init']);
  });

  it('an extension that throws never reaches the client', async () => {
    // Each throw is counted, so the test shows the client reached the throwing code and went on.
    const thrown = { connect: 0, send: 0 };
    const throwing = {
      connect: () => ({
        init: () => undefined,
        send: () => {
          thrown.send += 1;
          throw new Error('port closed');
        },
      }),
    };
    const { client } = fixture({}, { devtools: reduxDevtools({ extension: throwing }) });
    await expect(client.billing.getUsage()).resolves.toEqual(USAGE);
    const sends = thrown.send;
    expect(sends).toBeGreaterThan(0);
    await expect(client.billing.consume()).resolves.toEqual({
      freeRemaining: 2,
      isCredit: false,
      isBlacklisted: false,
    });
    expect(thrown.send).toBeGreaterThan(sends);
    const refusing = {
      connect: () => {
        thrown.connect += 1;
        throw new Error('no');
      },
    };
    const other = fixture({}, { devtools: reduxDevtools({ extension: refusing }) });
    await expect(other.client.billing.getUsage()).resolves.toEqual(USAGE);
    expect(thrown.connect).toBe(1);
  });
});
