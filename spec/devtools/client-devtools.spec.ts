import { reduxDevtools } from '../../lib/devtools';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { fakeExtension } from './fake-extension';

// Issue 19 §2 through createClient's `devtools` option (the engine's S4 wiring): what a
// Redux DevTools extension sees of a client's life. Needs the engine's `devtools` option.
const TOKEN = 'sk_live_Secret-Token-42';

afterEach(cleanup);

function withDevtools() {
  const { extension, log } = fakeExtension();
  const setup = fixture(
    { freeRemaining: 1, balance: 10 },
    { headers: { Authorization: `Bearer ${TOKEN}` }, retries: 0, devtools: reduxDevtools({ extension }) },
  );
  return { ...setup, log };
}

describe('createClient({ devtools: reduxDevtools() })', () => {
  it('connects once as unified-billing:<scope>, with the initial state, and sends nothing before an action', () => {
    const { log } = withDevtools();
    expect(log.connects.map((options) => options.name)).toEqual(['unified-billing:generator_poster']);
    expect(log.messages).toEqual([
      { kind: 'init', state: expect.objectContaining({ usage: null, freePeriodEndsAt: null }) },
    ]);
  });

  it('sends the actions of a load and a consume, with the state after each', async () => {
    const { client, log } = withDevtools();
    await client.billing.getUsage();
    await client.billing.consume();
    const sent = log.messages.flatMap((message) => (message.kind === 'send' ? [message] : []));
    expect(sent.map((message) => message.action.type)).toEqual(
      expect.arrayContaining(['usage/loaded', 'consume/charged']),
    );
    const last = sent.at(-1)?.state as { usage: { freeRemaining: number }; freePeriodEndsAt: number | null };
    expect(last.usage.freeRemaining).toBe(0);
    expect(last.freePeriodEndsAt).toEqual(expect.any(Number));
    expect(JSON.parse(JSON.stringify(log.messages))).toEqual(log.messages);
  });

  it('never shows the token, not even one the backend echoed in an error', async () => {
    const { client, backend, log } = withDevtools();
    backend.script(PATH.count, { status: 500, body: JSON.stringify({ code: 500, message: `bad Bearer ${TOKEN}` }) });
    await expect(client.billing.getUsage()).rejects.toMatchObject({ code: 'http' });
    await client.billing.getUsage();
    await client.billing.consume();
    expect(log.messages.length).toBeGreaterThan(2);
    expect(JSON.stringify(log.messages)).not.toContain('Secret-Token');
  });

  it('after dispose(): unsubscribed, and nothing more is sent', async () => {
    const { client, log } = withDevtools();
    await client.billing.getUsage();
    client.billing.dispose();
    const seen = log.messages.length;
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'disposed' });
    expect(log.unsubscribed).toBe(1);
    expect(log.messages).toHaveLength(seen);
  });

  it('without an extension, the client works and nothing throws', async () => {
    const { client } = fixture({}, { devtools: reduxDevtools() });
    await expect(client.billing.consume()).resolves.toMatchObject({ freeRemaining: 2 });
  });
});
