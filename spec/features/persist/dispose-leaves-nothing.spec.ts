import { reduxDevtools, type DevtoolsExtension } from '../../../lib/devtools';
import { Browser, type Page, type PageOptions } from '../../helpers/browser';
import { PATH } from '../../helpers/client-fixture';
import { MemoryStorage } from '../../helpers/memory-storage';
import { refetchOn } from '../../../lib';

// Issue 23, item 2: after dispose() nothing of the client is left, whatever the timing of lock grants.
// The lock manager here is paused: it grants only when the test says, after the dispose as a busy
// browser process does, and in any order.

/** Every listener added to the fake window and document, and every channel opened, still live or not. */
class Platform {
  readonly listeners = new Map<string, Set<unknown>>();
  readonly channels: Array<{ closed: boolean }> = [];
  readonly connections = { opened: 0, closed: 0 };
  private readonly undo: Array<() => void> = [];

  constructor() {
    const target = (where: string) => ({
      visibilityState: 'visible',
      addEventListener: (type: string, listener: unknown) => this.set(`${where}:${type}`).add(listener),
      removeEventListener: (type: string, listener: unknown) => this.set(`${where}:${type}`).delete(listener),
    });
    this.patch('window', target('window'));
    this.patch('document', target('document'));
    // Over the browser helper's fake channel: every channel a client opens is seen here.
    const global = globalThis as unknown as { BroadcastChannel?: new (name: string) => { closed: boolean } };
    const Fake = global.BroadcastChannel as new (name: string) => { closed: boolean };
    const seen = this.channels;
    this.patch('BroadcastChannel', function BroadcastChannel(name: string) {
      const channel = new Fake(name);
      seen.push(channel);
      return channel;
    });
  }

  readonly extension: DevtoolsExtension = {
    connect: () => {
      this.connections.opened += 1;
      return { init: () => undefined, send: () => undefined, unsubscribe: () => void (this.connections.closed += 1) };
    },
  };

  listening(): string[] {
    return [...this.listeners].filter(([, set]) => set.size > 0).map(([type]) => type);
  }

  restore(): void {
    this.undo.splice(0).forEach((undo) => undo());
  }

  private set(type: string): Set<unknown> {
    const set = this.listeners.get(type) ?? new Set();
    this.listeners.set(type, set);
    return set;
  }

  private patch(name: string, value: unknown): void {
    const global = globalThis as Record<string, unknown>;
    const had = Object.prototype.hasOwnProperty.call(global, name);
    const before = global[name];
    global[name] = value;
    this.undo.push(() => (had ? (global[name] = before) : delete global[name]));
  }
}

const COMBINATIONS: ReadonlyArray<[string, { storage?: 'session' | 'local'; sync?: boolean }]> = [
  ['reloadSafe(sessionStorage)', { storage: 'session' }],
  ['reloadSafe(localStorage)', { storage: 'local' }],
  ['reloadSafe(sessionStorage) + tabSync()', { storage: 'session', sync: true }],
  ['reloadSafe(localStorage) + tabSync()', { storage: 'local', sync: true }],
  ['tabSync() alone', { sync: true }],
];

let browser: Browser;
let platform: Platform;
afterEach(() => {
  browser.close();
  platform.restore();
});

describe.each(COMBINATIONS)('dispose() with %s, refetch and DevTools on', (_label, combination) => {
  const storage = new MemoryStorage();
  const open = (): Page => {
    const options: PageOptions = {
      ...(combination.storage === undefined ? {} : { storage, perTab: combination.storage === 'session' }),
      sync: combination.sync === true,
      client: {
        refetch: refetchOn({ focus: true, online: true, intervalMs: 5_000 }),
        devtools: reduxDevtools({ extension: platform.extension }),
      },
    };
    return browser.open(options);
  };

  /** What the browser still holds for the client: locks held or asked for, channels, listeners, timers, DevTools. */
  const leftOver = () => ({
    held: browser.locks.heldNames(),
    pending: browser.locks.pendingNames(),
    channels: platform.channels.filter((channel) => !channel.closed).length,
    listeners: [...platform.listening(), ...(browser.windowListeners() > 0 ? ['pagehide/pageshow'] : [])],
    timers: browser.clock.pending,
    devtools: platform.connections.opened - platform.connections.closed,
  });
  const NOTHING = { held: [], pending: [], channels: 0, listeners: [], timers: 0, devtools: 0 };

  beforeEach(() => {
    storage.items.clear();
    browser = new Browser();
    platform = new Platform();
    browser.locks.paused = true;
  });

  it('disposed before any lock was granted: nothing is left asked for, and a late grant holds nothing', async () => {
    const page = open();
    await browser.settle();
    // What is counted is there while the client lives.
    const withLocks = combination.storage !== undefined || combination.sync === true;
    const asked = withLocks ? [expect.stringContaining(':page:')] : [];
    // One page lock, whichever features ask for it (issue 30): the store holds it once.
    expect(leftOver().pending.filter((name) => name.includes(':page:'))).toHaveLength(withLocks ? 1 : 0);
    expect(leftOver()).toMatchObject({
      // The page's lock (reloadSafe and tabSync share it: while it is held no other page replays this one's POSTs)
      // and the journal's in a shared storage, not granted while paused.
      pending: asked.length === 0 ? [] : expect.arrayContaining(asked),
      // The refetch interval, with tabSync the wait for an answer to the opening tab's `ask`, and with both
      // features the bound of the start's wait for the consume lock (the journal's replays run under it).
      timers: 1 + (combination.sync === true ? 1 : 0) + (combination.sync === true && combination.storage ? 1 : 0),
      devtools: 1,
      channels: combination.sync === true ? 1 : 0,
      listeners: expect.arrayContaining(['window:focus', 'window:online', 'document:visibilitychange']),
    });
    if (combination.storage !== undefined) expect(browser.windowListeners()).toBe(2);
    page.billing.dispose();
    await browser.settle();
    expect(leftOver()).toEqual(NOTHING);
    // Whatever the manager still had in hand, granted now in the reverse order, is let go at once.
    browser.locks.grant({ newestFirst: true });
    await browser.settle();
    expect(leftOver()).toEqual(NOTHING);
  });

  it('disposed in a running free period, its locks granted after the dispose: nothing is left', async () => {
    const page = open();
    await browser.settle();
    browser.locks.grant();
    await browser.settle();
    const charged = page.billing.consume();
    // The consume lock (tabSync) is granted when asked, up to the charge, which asks for the free period's.
    for (let round = 0; page.billing.check().reason !== 'free_period'; round++) {
      if (round === 10) throw new Error('never charged');
      browser.locks.grant();
      await browser.settle();
    }
    await charged;
    expect(browser.count(PATH.consume)).toBe(1);
    expect(page.billing.check().reason).toBe('free_period');
    // The free period's lock (tabSync) is asked for and not yet granted when the client goes.
    page.billing.dispose();
    await browser.settle();
    expect(leftOver()).toEqual(NOTHING);
    browser.locks.grant({ newestFirst: true });
    await browser.advance(30_000);
    expect(leftOver()).toEqual(NOTHING);
  });

  it('a lock manager that ignores abort signals (a polyfill): what it grants after the dispose is let go at once', async () => {
    browser.locks.honorsSignal = false;
    const page = open();
    await browser.settle();
    page.billing.dispose();
    await browser.settle();
    browser.locks.grant({ newestFirst: true });
    await browser.settle();
    expect(leftOver()).toEqual(NOTHING);
  });

  it('a hundred clients created, used and disposed while the manager grants nothing: nothing is left', async () => {
    for (let i = 0; i < 100; i++) {
      const page = open();
      const subscription = page.billing.usage$.subscribe();
      if (i % 10 === 0) await browser.settle();
      subscription.unsubscribe();
      page.billing.dispose();
      if (i % 7 === 0) browser.locks.grant({ newestFirst: i % 2 === 0 });
    }
    await browser.settle();
    expect(leftOver()).toEqual(NOTHING);
    browser.locks.grant();
    await browser.settle();
    expect(leftOver()).toEqual(NOTHING);
  });
});
