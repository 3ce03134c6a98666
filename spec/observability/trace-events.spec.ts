import { billingEvents, type BillingEvent, type BillingEventType } from '../../lib';
import { Browser, type Page } from '../helpers/browser';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { MemoryStorage } from '../helpers/memory-storage';
import { settle } from '../helpers/virtual-clock';

// The events a trace is built from: each operation's start and end, retries with their consume and
// reason, cancellation apart from failure, and a replay (a reload's, a dead tab's) apart from the app's
// own consumes, so a re-send is never a `consume:*` event of the page that sends it.

afterEach(() => cleanup());

const types = (events: readonly BillingEvent[]): BillingEventType[] => events.map((event) => event.type);
const listen = () => {
  const events: BillingEvent[] = [];
  return { events, feature: billingEvents({ onEvent: (event) => events.push(event) }) };
};

describe('cancellation is told apart from failure', () => {
  it('an abort before the answer is consume:canceled (aborted), its POST unanswered, and no consume:failed', async () => {
    const { events, feature } = listen();
    const { client, backend } = fixture({}, { events: feature });
    backend.pace = () => new Promise(() => undefined);
    const controller = new AbortController();
    const consume = client.billing.consume({ externalId: 'gone-1', signal: controller.signal });
    await settle();
    controller.abort();
    await expect(consume).rejects.toMatchObject({ code: 'aborted' });
    expect(types(events)).toEqual(['consume:started', 'consume:canceled']);
    expect(events[1]).toMatchObject({
      call: 1,
      externalId: 'gone-1',
      attempts: 1,
      reason: 'aborted',
      unanswered: true,
    });
  });

  it('a dispose is consume:canceled (disposed), a queued consume too, each with its own number', async () => {
    const { events, feature } = listen();
    const { client, backend } = fixture({}, { events: feature });
    backend.pace = () => new Promise(() => undefined);
    const first = client.billing.consume({ externalId: 'first' }).catch((error: unknown) => error);
    const queued = client.billing.consume().catch((error: unknown) => error);
    await settle();
    client.billing.dispose();
    await expect(first).resolves.toMatchObject({ code: 'disposed' });
    await expect(queued).resolves.toMatchObject({ code: 'disposed' });
    const ends = events.filter((event) => event.type === 'consume:canceled');
    expect(ends).toEqual([
      expect.objectContaining({ call: 1, externalId: 'first', attempts: 1, reason: 'disposed', unanswered: true }),
      expect.objectContaining({ call: 2, externalId: null, attempts: 0, reason: 'disposed', unanswered: false }),
    ]);
  });

  it('an aborted usage fetch is usage:canceled, not usage:failed', async () => {
    const { events, feature } = listen();
    const { client, backend } = fixture({}, { events: feature });
    backend.pace = () => new Promise(() => undefined);
    const controller = new AbortController();
    const usage = client.billing.getUsage({ signal: controller.signal });
    await settle();
    controller.abort();
    await expect(usage).rejects.toMatchObject({ code: 'aborted' });
    await settle();
    expect(events).toEqual([
      expect.objectContaining({ type: 'usage:started' }),
      expect.objectContaining({ type: 'usage:canceled', attempts: 1, reason: 'aborted' }),
    ]);
  });
});

describe('retries name their consume and their reason', () => {
  it("a POST's retry carries the consume's id (made for it), the status, and the end counts the attempts", async () => {
    const { events, feature } = listen();
    const { client, backend, clock } = fixture({}, { retries: 2, events: feature });
    await client.billing.getUsage();
    backend.script(PATH.consume, { status: 503, body: 'busy' });
    const consume = client.billing.consume();
    await settle();
    clock.advanceBy((clock.nextDue() as number) - clock.now());
    const result = await consume;
    expect(result.isCredit).toBe(false);
    const sent = backend.requests.filter((request) => request.path === PATH.consume);
    const id = (sent[0]?.body as { external_id: string }).external_id;
    const retry = events.find((event) => event.type === 'request:retry');
    expect(retry).toMatchObject({ attempt: 1, path: PATH.consume, externalId: id, code: 'http', status: 503 });
    expect(events.find((event) => event.type === 'consume:charged')).toMatchObject({
      call: 1,
      externalId: id,
      attempts: 2,
    });
  });

  it('a 401 answered by onUnauthorized is request:unauthorized, then the re-send is the next attempt', async () => {
    const { events, feature } = listen();
    const { client, backend } = fixture({}, { events: feature, onUnauthorized: () => undefined });
    await client.billing.getUsage();
    backend.script(PATH.consume, { status: 401, body: 'expired' });
    await client.billing.consume({ externalId: 'auth-1' });
    expect(events.find((event) => event.type === 'request:unauthorized')).toMatchObject({
      path: PATH.consume,
      externalId: 'auth-1',
    });
    expect(events.find((event) => event.type === 'consume:charged')).toMatchObject({
      externalId: 'auth-1',
      attempts: 2,
    });
  });
});

describe('a replay is told apart from the app consumes', () => {
  let browser: Browser;
  afterEach(() => browser?.close());
  const ids = (events: readonly BillingEvent[], prefix: string) =>
    events
      .filter((event) => event.type.startsWith(prefix))
      .map((event) => [event.type, 'externalId' in event ? event.externalId : null]);

  it("a reload's replay: replay:started and replay:settled with origin reload, then consume:recovered", async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const first = browser.open({ storage, perTab: true });
    await first.billing.getUsage();
    browser.hold = { at: 'answers', page: first };
    void first.billing.consume({ externalId: 'export-7' }).catch(() => undefined);
    await browser.settle();
    const { events, feature } = listen();
    browser.hold = null;
    browser.kill(first);
    const reloaded = browser.open({ storage, perTab: true, client: { events: feature } });
    await browser.settle();
    await reloaded.billing.getUsage();
    await browser.settle();
    expect(ids(events, 'consume:')).toEqual([['consume:recovered', 'export-7']]);
    expect(events.filter((event) => event.type.startsWith('replay:'))).toEqual([
      expect.objectContaining({ type: 'replay:started', call: 1, externalId: 'export-7', origin: 'reload' }),
      expect.objectContaining({
        type: 'replay:settled',
        call: 1,
        externalId: 'export-7',
        origin: 'reload',
        attempts: 1,
        outcome: { ok: true, result: expect.objectContaining({ isCredit: false }) },
      }),
    ]);
  });

  async function deadTab(): Promise<{ tabs: Page[]; events: BillingEvent[]; b: Promise<unknown> }> {
    browser = new Browser();
    const { events, feature } = listen();
    const tabs = [browser.open({ sync: true }), browser.open({ sync: true, client: { events: feature } })];
    const [a, b] = tabs as [Page, Page];
    await Promise.all(tabs.map((tab) => tab.billing.getUsage()));
    await browser.settle();
    browser.hold = { at: 'requests', page: a };
    void a.billing.consume({ externalId: 'a-1' }).catch(() => undefined);
    await browser.settle();
    const clicked = b.billing.consume({ externalId: 'b-1' }).then(
      (result) => ({ ok: true, result }),
      (error: unknown) => ({ ok: false, error }),
    );
    await browser.settle();
    return { tabs, events, b: clicked };
  }

  it("a dead tab's POST sent again under the lock: replay:* with origin tab inside B's own consume", async () => {
    const { tabs, events, b } = await deadTab();
    browser.kill(tabs[0] as Page);
    for (let i = 0; i < 5; i++) await browser.advance(1_000);
    await expect(b).resolves.toMatchObject({ ok: true });
    await browser.settle();
    expect(ids(events, 'consume:')).toEqual([
      ['consume:started', 'b-1'],
      ['consume:recovered', 'a-1'],
      ['consume:free', 'b-1'],
    ]);
    const replay = events.filter((event) => event.type.startsWith('replay:') || event.type === 'lock:acquired');
    // The lock first: its answer names the dead tab's POST, which is sent again under it.
    expect(replay).toEqual([
      expect.objectContaining({ type: 'lock:acquired', call: 1 }),
      expect.objectContaining({ type: 'replay:started', call: 2, externalId: 'a-1', origin: 'tab' }),
      expect.objectContaining({ type: 'replay:settled', call: 2, externalId: 'a-1', origin: 'tab', attempts: 1 }),
    ]);
  });

  it('a re-send that fails is no consume:failed on the page that sent it (the app never made it)', async () => {
    const { tabs, events, b } = await deadTab();
    // The re-send, and its retries, fail; then B's own POST goes.
    browser.backend.script(PATH.consume, ...Array.from({ length: 3 }, () => ({ status: 503, body: 'down' })));
    browser.kill(tabs[0] as Page);
    await browser.advance(500);
    for (let i = 0; i < 5; i++) await browser.advance(1_000);
    await b;
    await browser.settle();
    expect(events.some((event) => event.type === 'consume:failed' && event.externalId === 'a-1')).toBe(false);
    expect(events.filter((event) => 'externalId' in event && event.externalId === 'a-1').map((e) => e.type)).toEqual(
      expect.arrayContaining(['replay:started', 'replay:settled']),
    );
    const settled = events.find((event) => event.type === 'replay:settled');
    expect(settled).toMatchObject({
      origin: 'tab',
      outcome: { ok: false, error: expect.objectContaining({ status: 503 }) },
    });
  });
});
