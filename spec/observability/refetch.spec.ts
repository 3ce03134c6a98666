import { type BillingStatus, type UsageInfo, refetchOn } from '../../lib';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

// Issue 12 item 2, black box: the `refetch` option through `createClient`, in
// virtual time. A fake window and document stand in for the browser's.

const START = 1_000_000;

/** A window or document: an EventTarget that counts its listeners. */
class FakeTarget extends EventTarget {
  visibilityState = 'visible';
  readonly listening = new Map<string, number>();
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    this.listening.set(type, (this.listening.get(type) ?? 0) + 1);
    super.addEventListener(type, listener);
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    this.listening.set(type, (this.listening.get(type) ?? 0) - 1);
    super.removeEventListener(type, listener);
  }
  get total(): number {
    return [...this.listening.values()].reduce((sum, n) => sum + n, 0);
  }
  fire(type: string): void {
    this.dispatchEvent(new Event(type));
  }
}

const globals = globalThis as { window?: unknown; document?: unknown };
let win: FakeTarget;
let doc: FakeTarget;

function installBrowser(): void {
  win = new FakeTarget();
  doc = new FakeTarget();
  globals.window = win;
  globals.document = doc;
}

afterEach(() => {
  cleanup();
  delete globals.window;
  delete globals.document;
});

/** Usage GET pairs sent so far. */
const pairs = (backend: { count(path: string): number }) => [backend.count(PATH.count), backend.count(PATH.balance)];

describe('refetch: refetchOn({ intervalMs })', () => {
  it('GETs usage every 5 s on the scheduler, and stops on dispose with no timer left', async () => {
    const { client, backend, clock } = fixture({}, { refetch: refetchOn({ intervalMs: 5_000 }) });
    expect(backend.requests).toHaveLength(0);
    clock.advanceBy(4_999);
    await settle();
    expect(backend.requests).toHaveLength(0);
    clock.advanceBy(1);
    await settle();
    expect(pairs(backend)).toEqual([1, 1]);
    for (let tick = 0; tick < 3; tick++) {
      clock.advanceBy(5_000);
      await settle();
    }
    expect(pairs(backend)).toEqual([4, 4]);
    expect(clock.pending).toBe(1);

    client.billing.dispose();
    expect(clock.pending).toBe(0);
    clock.advanceBy(60_000);
    await settle();
    expect(pairs(backend)).toEqual([4, 4]);
  });

  it('a refetch shows in usage$ and in the status, its failure in status.error and never as a rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const { client, backend, clock } = fixture({}, { refetch: refetchOn({ intervalMs: 5_000 }), retries: 0 });
    const balances: number[] = [];
    const statuses: BillingStatus[] = [];
    client.billing.usage$.subscribe((usage: UsageInfo) => balances.push(usage.creditsBalance));
    client.billing.status$.subscribe((status) => statuses.push(status));
    clock.advanceBy(5_000);
    await settle();
    expect(balances).toEqual([10]);
    expect(client.billing.getStatus()).toMatchObject({ loaded: true, loading: false, fetchedAt: START + 5_000 });
    expect(statuses.some((status) => status.loading)).toBe(true);

    backend.quota.balance = 42; // topped up elsewhere
    clock.advanceBy(5_000);
    await settle();
    expect(balances).toEqual([10, 42]);
    expect(client.billing.getStatus().fetchedAt).toBe(START + 10_000);

    backend.script(PATH.count, { status: 503, body: 'busy' });
    clock.advanceBy(5_000);
    await settle();
    expect(client.billing.getStatus()).toMatchObject({ loading: false, fetchedAt: START + 10_000 });
    expect(client.billing.getStatus().error).toMatchObject({ code: 'http', status: 503 });
    clock.advanceBy(5_000);
    await settle();
    expect(client.billing.getStatus()).toMatchObject({ error: null, fetchedAt: START + 20_000 });
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
});

describe('refetch: refetchOn({ focus, online })', () => {
  it('in Node (no window, no document) arms nothing', async () => {
    const { backend, clock } = fixture({}, { refetch: refetchOn({ focus: true, online: true }) });
    expect(clock.pending).toBe(0);
    // A window that appears later is not listened to either.
    installBrowser();
    win.fire('focus');
    win.fire('online');
    await settle();
    expect(backend.requests).toHaveLength(0);
  });

  it('focus, visibilitychange and online refetch, at most once per 2 s together', async () => {
    installBrowser();
    const { backend, clock } = fixture({}, { refetch: refetchOn({ focus: true, online: true }) });
    expect(clock.pending).toBe(0);
    // Returning to a tab fires visibilitychange and focus together, then online.
    doc.fire('visibilitychange');
    win.fire('focus');
    win.fire('online');
    await settle();
    expect(pairs(backend)).toEqual([1, 1]);

    clock.advanceBy(1_999);
    win.fire('focus');
    win.fire('online');
    await settle();
    expect(pairs(backend)).toEqual([1, 1]);

    clock.advanceBy(1);
    win.fire('online');
    await settle();
    expect(pairs(backend)).toEqual([2, 2]);

    clock.advanceBy(2_000);
    doc.visibilityState = 'hidden';
    doc.fire('visibilitychange'); // leaving the tab is not a return
    await settle();
    expect(pairs(backend)).toEqual([2, 2]);
    doc.visibilityState = 'visible';
    doc.fire('visibilitychange');
    await settle();
    expect(pairs(backend)).toEqual([3, 3]);
  });

  it('a focus while offline is skipped; the online event that follows refetches', async () => {
    installBrowser();
    const nav = { onLine: false };
    const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: nav, configurable: true, writable: true });
    try {
      const { backend } = fixture({}, { refetch: refetchOn({ focus: true, online: true }) });
      win.fire('focus');
      await settle();
      expect(backend.requests).toHaveLength(0);
      nav.onLine = true;
      win.fire('online');
      await settle();
      expect(pairs(backend)).toEqual([1, 1]);
    } finally {
      if (had) Object.defineProperty(globalThis, 'navigator', had);
      else delete (globalThis as { navigator?: unknown }).navigator;
    }
  });

  it('a focus while a getUsage is in flight shares it: one request pair, both see the answer', async () => {
    installBrowser();
    const { client, backend } = fixture({}, { refetch: refetchOn({ focus: true }) });
    backend.holding = true;
    const usage = client.billing.getUsage();
    usage.catch(() => undefined); // a failed expectation below must not leave it unhandled
    await settle();
    win.fire('focus');
    await settle();
    expect(pairs(backend)).toEqual([1, 1]);
    backend.holding = false;
    backend.release();
    await expect(usage).resolves.toMatchObject({ creditsBalance: 10 });
    await settle();
    expect(pairs(backend)).toEqual([1, 1]);
    expect(client.billing.getStatus()).toMatchObject({ loaded: true, loading: false });
  });

  it('focus alone does not listen to online, online alone not to focus', async () => {
    installBrowser();
    fixture({}, { refetch: refetchOn({ focus: true }) });
    expect([win.listening.get('focus'), win.listening.get('online') ?? 0]).toEqual([1, 0]);
    expect(doc.listening.get('visibilitychange')).toBe(1);
    cleanup();
    installBrowser();
    fixture({}, { refetch: refetchOn({ online: true }) });
    expect([win.listening.get('focus') ?? 0, win.listening.get('online')]).toEqual([0, 1]);
    expect(doc.total).toBe(0);
  });

  it('dispose removes every listener: later events send nothing', async () => {
    installBrowser();
    const { client, backend, clock } = fixture(
      {},
      { refetch: refetchOn({ focus: true, online: true, intervalMs: 1_000 }) },
    );
    expect(win.total + doc.total).toBeGreaterThanOrEqual(3);
    client.billing.dispose();
    expect(win.total + doc.total).toBe(0);
    expect(clock.pending).toBe(0);
    win.fire('focus');
    win.fire('online');
    doc.fire('visibilitychange');
    clock.advanceBy(10_000);
    await settle();
    expect(backend.requests).toHaveLength(0);
  });
});

describe('without the refetch option', () => {
  it.each([
    ['absent', undefined],
    ['refetchOn({})', {}],
    ['all off', { focus: false, online: false }],
  ])('(%s) no listener is added and no timer armed', async (_, asked) => {
    installBrowser();
    const added = jest.spyOn(win, 'addEventListener');
    const addedDoc = jest.spyOn(doc, 'addEventListener');
    const { client, backend, clock } = fixture({}, asked === undefined ? {} : { refetch: refetchOn(asked) });
    await client.billing.getUsage();
    expect(added).not.toHaveBeenCalled();
    expect(addedDoc).not.toHaveBeenCalled();
    expect(clock.pending).toBe(0);
    win.fire('focus');
    win.fire('online');
    clock.advanceBy(60_000);
    await settle();
    expect(pairs(backend)).toEqual([1, 1]);
  });
});
