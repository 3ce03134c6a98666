import { firstValueFrom } from 'rxjs';
import { tabSync } from '../../lib/sync';
import { PATH } from '../helpers/client-fixture';
import { FakeBackend, quota } from '../helpers/fake-backend';
import { VirtualClock } from '../helpers/virtual-clock';
import { FakeBroadcastChannel, installFakeChannel } from './fake-channel';
import { closeTabs, FakeLocks, quiet, runTabs, settleTabs, spyChannel, tab } from './tabs';

afterEach(closeTabs);

const posts = (backend: FakeBackend) => backend.count(PATH.consume);

// Issue 9, item 4: the lifecycle faults of tab sync.
describe('tabs: a new tab', () => {
  it("getUsage() resolves with the tab's own server answer, not the older state another tab answered its hello with", async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota({ balance: 10 }));
    const clock = new VirtualClock(0);
    const a = tab(backend, {}, clock);
    await a.client.billing.getUsage();
    await quiet(spy);
    backend.quota.balance = 50; // a top-up, made elsewhere
    backend.holding = true; // the channel is faster than the network
    const b = tab(backend, {}, clock);
    const usage = b.client.billing.getUsage();
    await quiet(spy);
    expect(b.client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 10 });
    backend.release();
    await expect(usage).resolves.toMatchObject({ creditsBalance: 50 });
    expect(b.client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 50 });
  });

  it.each([
    ['with Web Locks', () => ({ sync: tabSync({ locks: new FakeLocks() }) })],
    ['without Web Locks', () => ({ sync: tabSync({ locks: null }) })],
  ])('a consume at start-up while another tab is in a free period sends nothing, %s', async (_label, options) => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    const clock = new VirtualClock(0);
    const shared = options();
    const a = tab(backend, shared, clock);
    await a.client.billing.getUsage();
    await settleTabs([a], spy, a.client.billing.consume());
    await quiet(spy);
    // A deep link that exports on open: consume() in the same task as createClient().
    const late = tab(backend, shared, clock);
    const result = await settleTabs([a, late], spy, late.client.billing.consume());
    expect(posts(backend)).toBe(1);
    expect(result).toEqual({ freeRemaining: 2, isCredit: false, isBlacklisted: false });
  });

  it('without Web Locks, a tab opened while another tab consumes waits for that consume: one POST, one charge', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    const clock = new VirtualClock(0);
    const shared = { sync: tabSync({ locks: null }) };
    const a = tab(backend, shared, clock);
    await a.client.billing.getUsage();
    backend.holding = true;
    const first = a.client.billing.consume({ externalId: 'click-a' });
    await runTabs([a], spy, () => posts(backend) === 1);
    // Opened while the POST is on the wire; its user clicks after the hello round.
    const late = tab(backend, shared, clock);
    const second = late.client.billing.consume({ externalId: 'click-late' });
    for (let i = 0; i < 10; i++) {
      await quiet(spy);
      clock.advanceBy(100);
    }
    backend.holding = false;
    backend.release();
    await settleTabs([a, late], spy, Promise.all([first, second]));
    expect(backend.charged).toEqual(['click-a']);
    expect(posts(backend)).toBe(1);
    await expect(second).resolves.toEqual({ freeRemaining: 2, isCredit: false, isBlacklisted: false });
  });
});

describe('tabs: the shared free period on a shared timeline', () => {
  let restore: () => void;
  beforeEach(() => (restore = installFakeChannel()));
  afterEach(() => restore());

  it('a tab that handles the charge 10 s late is free for the 20 s left, never beyond 30 s after the charge answer', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    const clock = new VirtualClock(0);
    const a = tab(backend, {}, clock);
    const b = tab(backend, {}, clock);
    const busy = FakeBroadcastChannel.latest();
    await quiet(spy);
    busy.hold(); // b's main thread is busy, or its tab frozen in the background
    await settleTabs([a], spy, a.client.billing.consume());
    const answeredAt = clock.now();
    clock.advanceBy(10_000);
    busy.release();
    await quiet(spy);
    expect(await firstValueFrom(b.client.billing.freePeriodRemaining$)).toBe(20);
    clock.advanceBy(19_999);
    expect(b.client.billing.check().reason).toBe('free_period');
    clock.advanceBy(1);
    expect(clock.now() - answeredAt).toBe(30_000);
    expect(b.client.billing.check().reason).not.toBe('free_period');
    expect(await firstValueFrom(b.client.billing.freePeriodRemaining$)).toBe(0);
  });
});

describe('tabs: a busy tab answers a hello late', () => {
  let restore: () => void;
  beforeEach(() => (restore = installFakeChannel()));
  afterEach(() => restore());

  it("its older usage does not roll back the new tab's own, newer server answer", async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota({ balance: 10 }));
    const clock = new VirtualClock(0);
    const a = tab(backend, {}, clock);
    const busy = FakeBroadcastChannel.latest();
    await a.client.billing.getUsage();
    await quiet(spy);
    clock.advanceBy(5_000);
    backend.quota.balance = 50; // a top-up, made elsewhere
    busy.hold(); // a's main thread is busy: it hears the new tab's hello late
    const b = tab(backend, {}, clock);
    await expect(b.client.billing.getUsage()).resolves.toMatchObject({ creditsBalance: 50 });
    clock.advanceBy(1_000);
    busy.release();
    await quiet(spy);
    expect(b.client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 50 });
    // What a learns later still reaches b.
    backend.quota.balance = 70;
    await a.client.billing.refreshCredits();
    await quiet(spy);
    expect(b.client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 70 });
  });
});

describe('tabs: a closing tab', () => {
  const global = globalThis as unknown as {
    addEventListener?: EventTarget['addEventListener'];
    removeEventListener?: EventTarget['removeEventListener'];
  };
  let page: EventTarget;
  beforeEach(() => (page = new EventTarget()));
  afterEach(() => {
    delete global.addEventListener;
    delete global.removeEventListener;
  });
  const openPage = () => {
    global.addEventListener = page.addEventListener.bind(page);
    global.removeEventListener = page.removeEventListener.bind(page);
  };

  it('releases its claim on pagehide, so the next consume elsewhere does not wait out the hold cap', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    const clock = new VirtualClock(0);
    const shared = { sync: tabSync({ locks: null }) };
    const b = tab(backend, shared, clock); // opened before the fake page: it hears no pagehide
    openPage();
    const a = tab(backend, shared, clock);
    backend.holding = true;
    a.client.billing.consume({ externalId: 'closing' }).catch(() => undefined);
    await runTabs([a, b], spy, () => posts(backend) === 1);
    page.dispatchEvent(new Event('pagehide'));
    await quiet(spy);
    const start = clock.now();
    b.client.billing.consume({ externalId: 'next' }).catch(() => undefined);
    await runTabs([b], spy, () => posts(backend) === 2);
    // The claim window and the hello round, not the 60+ s a silent holder costs.
    expect(clock.now() - start).toBeLessThanOrEqual(1_000);
    expect(spy.messages).toContainEqual(expect.objectContaining({ kind: 'bye' }));
    backend.holding = false;
    backend.release();
  });

  it('stops listening for pagehide once disposed', async () => {
    const listening = new Set<unknown>();
    global.addEventListener = (type: string, listener: unknown) => type === 'pagehide' && listening.add(listener);
    global.removeEventListener = (type: string, listener: unknown) => type === 'pagehide' && listening.delete(listener);
    const a = tab(new FakeBackend(quota()), {}, new VirtualClock(0));
    expect(listening.size).toBe(1);
    a.client.billing.dispose();
    expect(listening.size).toBe(0);
  });
});
