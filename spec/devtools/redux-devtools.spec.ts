import { BillingError } from '../../lib';
import { reduxDevtools, type DevtoolsState } from '../../lib/devtools';
import { fakeExtension } from './fake-extension';

// reduxDevtools() against a fake extension, driven as the engine drives the S4 hook
// (connect at creation, send per applied action, close on dispose).
const TOKEN = 'sk_live_Secret-Token-42';

const loaded: DevtoolsState = {
  usage: {
    isEnabled: true,
    freeRemaining: 2,
    freeTotal: 5,
    creditsPerUse: 3,
    creditsBalance: 10,
    inFreePeriod: true,
    freePeriodRemaining: 30,
  },
  status: { loaded: true, loading: false, fetchedAt: 1200, pending: 0, error: null },
  freePeriodEndsAt: 1_764_000_030_000,
};
const initial: DevtoolsState = {
  usage: null,
  status: { loaded: false, loading: false, fetchedAt: null, pending: 0, error: null },
  freePeriodEndsAt: null,
};

const global = globalThis as { __REDUX_DEVTOOLS_EXTENSION__?: unknown };
afterEach(() => delete global.__REDUX_DEVTOOLS_EXTENSION__);

describe('reduxDevtools()', () => {
  it('without an extension: connect gives null and nothing throws', () => {
    expect(reduxDevtools().connect('generator_app', initial)).toBeNull();
    expect(reduxDevtools({ extension: null }).connect('generator_app', initial)).toBeNull();
  });

  it('finds globalThis.__REDUX_DEVTOOLS_EXTENSION__, names the instance after the scope, then sends the state', () => {
    const { extension, log } = fakeExtension();
    global.__REDUX_DEVTOOLS_EXTENSION__ = extension;
    const connection = reduxDevtools().connect('generator_app', initial);
    expect(connection).not.toBeNull();
    expect(log.connects.map((options) => options.name)).toEqual(['unified-billing:generator_app']);
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
  });

  it('takes a name and an extension given as options', () => {
    const { extension, log } = fakeExtension();
    reduxDevtools({ name: 'billing (Alice)', extension }).connect('generator_app', initial);
    expect(log.connects.map((options) => options.name)).toEqual(['billing (Alice)']);
  });

  it('sends each action with the state after it, as plain JSON', () => {
    const { extension, log } = fakeExtension();
    const connection = reduxDevtools({ extension }).connect('s', initial);
    connection?.send({ type: 'usage/loaded', seq: 1, quota: { freeRemaining: 3, creditsBalance: 10 } }, loaded);
    connection?.send({ type: 'consume/charged', seq: 2, now: 1300, freeRemaining: 2, isCredit: false }, loaded);
    const sent = log.messages.filter((message) => message.kind === 'send');
    expect(sent.map((message) => message.kind === 'send' && message.action)).toEqual([
      { type: 'usage/loaded', seq: 1, quota: { freeRemaining: 3, creditsBalance: 10 } },
      { type: 'consume/charged', seq: 2, now: 1300, freeRemaining: 2, isCredit: false },
    ]);
    expect(sent[1]?.state).toEqual({ ...loaded, usage: { ...loaded.usage } });
    expect(JSON.parse(JSON.stringify(log.messages))).toEqual(log.messages);
  });

  it('never sends a header value or a token, even one the backend echoed into an error', () => {
    const { extension, log } = fakeExtension();
    const connection = reduxDevtools({ extension }).connect('s', initial);
    const echoed = new BillingError('http', `HTTP 401: bad token ${TOKEN}`, { status: 401 });
    connection?.send(
      {
        type: 'usage/failed',
        error: { code: 'http', message: `bad token ${TOKEN}`, status: 401 },
        headers: { Authorization: `Bearer ${TOKEN}` },
        token: TOKEN,
        externalId: TOKEN,
        [`Bearer ${TOKEN}`]: 1,
        note: `Bearer ${TOKEN}`,
        fn: () => TOKEN,
      },
      { ...loaded, status: { ...loaded.status, loaded: false, error: echoed } },
    );
    const text = JSON.stringify(log.messages);
    expect(text).not.toContain('Secret');
    expect(text).not.toContain('Bearer');
    const [, message] = log.messages;
    expect(message).toEqual({
      kind: 'send',
      action: { type: 'usage/failed', error: { code: 'http', status: 401 }, headers: {} },
      state: expect.objectContaining({ status: expect.objectContaining({ error: { code: 'http', status: 401 } }) }),
    });
  });

  it('is read-only: it never listens to the extension, and its UI offers no time travel', () => {
    const { extension, log } = fakeExtension();
    const connection = reduxDevtools({ extension }).connect('s', initial);
    log.dispatchBack({ type: 'DISPATCH', payload: { type: 'JUMP_TO_STATE' }, state: '{"usage":null}' });
    connection?.send({ type: 'balance/loaded', seq: 1, balance: 4 }, loaded);
    expect(log.subscribed).toBe(0);
    expect(log.connects[0]?.features).toMatchObject({ jump: false, skip: false, import: false, dispatch: false });
    expect(log.messages.map((message) => message.kind)).toEqual(['init', 'send']);
  });

  it('close() unsubscribes, and nothing is sent after it', () => {
    const { extension, log } = fakeExtension();
    const connection = reduxDevtools({ extension }).connect('s', initial);
    connection?.close();
    connection?.send({ type: 'balance/loaded', seq: 1, balance: 4 }, loaded);
    connection?.close();
    expect(log.unsubscribed).toBe(1);
    expect(log.messages.map((message) => message.kind)).toEqual(['init']);
  });

  it('an extension that throws never reaches the client', () => {
    const throwing = {
      connect: () => ({
        init: () => undefined,
        send: () => {
          throw new Error('port closed');
        },
      }),
    };
    const connection = reduxDevtools({ extension: throwing }).connect('s', initial);
    expect(() => connection?.send({ type: 'balance/loaded', seq: 1, balance: 4 }, loaded)).not.toThrow();
    const refusing = {
      connect: () => {
        throw new Error('no');
      },
    };
    expect(reduxDevtools({ extension: refusing }).connect('s', initial)).toBeNull();
  });
});
