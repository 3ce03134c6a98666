import { tabSync } from '../../lib/sync';
import { firstValueFrom } from 'rxjs';
import { PATH } from '../helpers/client-fixture';
import { FakeBackend, quota } from '../helpers/fake-backend';
import { VirtualClock } from '../helpers/virtual-clock';
import { closeTabs, FakeLocks, onOwnClock, quiet, runTabs, settleTabs, spyChannel, tab } from './tabs';

afterEach(closeTabs);

const posts = (backend: FakeBackend) => backend.count(PATH.consume);

describe("sync: 'broadcast' across tabs", () => {
  it('a charge in one tab starts the free period in the other, whose clock started elsewhere', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    // Both tabs were opened at the same moment, their monotonic clocks started elsewhere.
    const pageA = onOwnClock(5_000);
    const pageB = onOwnClock(9_999_000);
    const a = tab(backend, { sync: pageA.sync }, pageA.clock);
    const b = tab(backend, { sync: pageB.sync }, pageB.clock);
    await settleTabs([a, b], spy, a.client.billing.consume());
    await quiet(spy);
    expect(b.client.billing.check()).toEqual({ canProceed: true, reason: 'free_period' });
    expect(await firstValueFrom(b.client.billing.freePeriodRemaining$)).toBe(30);
    await expect(b.client.billing.consume()).resolves.toMatchObject({ isCredit: false });
    expect(posts(backend)).toBe(1);
    b.clock.advanceBy(30_000);
    expect(b.client.billing.check().reason).not.toBe('free_period');
  });

  it('the latest usage reaches the other tab without a request of its own, and so does a charge', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota({ freeRemaining: 0, balance: 10, creditsPerUse: 2 }));
    const clock = new VirtualClock(0);
    const a = tab(backend, {}, clock);
    const b = tab(backend, {}, clock);
    const seen: number[] = [];
    b.client.billing.usage$.subscribe((usage) => seen.push(usage.creditsBalance));
    await a.client.billing.getUsage();
    await quiet(spy);
    await settleTabs([a, b], spy, a.client.billing.consume());
    await quiet(spy);
    expect(seen).toEqual([10, 8]);
    expect(b.client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 8, inFreePeriod: true });
    expect(backend.requests.map((request) => request.path)).toEqual([
      PATH.count,
      PATH.balance,
      PATH.consume,
      PATH.balance,
    ]);
  });

  it('a tab opened later asks the others and starts with their usage and free period', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    const a = tab(backend);
    await a.client.billing.getUsage();
    await settleTabs([a], spy, a.client.billing.consume());
    const requestsBefore = backend.requests.length;
    const late = tab(backend, {}, a.clock);
    await quiet(spy);
    expect(late.client.billing.getCachedUsage()).toMatchObject({ freeRemaining: 2, inFreePeriod: true });
    expect(backend.requests).toHaveLength(requestsBefore);
  });

  it.each([
    ['without Web Locks (claim protocol)', () => ({ sync: tabSync() })],
    ['with Web Locks', () => ({ sync: tabSync({ locks: new FakeLocks() }) })],
  ])('two tabs clicking at once make one charge, %s', async (_label, options) => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    const shared = options();
    const clock = new VirtualClock(1_000);
    const a = tab(backend, shared, clock);
    const b = tab(backend, shared, clock);
    await a.client.billing.getUsage();
    await quiet(spy);
    const outcomes: unknown[] = [];
    a.client.billing.consume({ externalId: 'click-a' }).then((r) => outcomes.push(r));
    b.client.billing.consume({ externalId: 'click-b' }).then((r) => outcomes.push(r));
    await runTabs([a, b], spy, () => outcomes.length === 2);
    expect(backend.charged).toHaveLength(1);
    expect(posts(backend)).toBe(1);
    expect(outcomes).toEqual([
      { freeRemaining: 2, isCredit: false, isBlacklisted: false },
      { freeRemaining: 2, isCredit: false, isBlacklisted: false },
    ]);
  });

  it('a tab that vanished without a word delays the next charge by one handover cap (1 s virtual), once', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    const a = tab(backend, { sync: tabSync({ locks: new FakeLocks() }) });
    // Looks like a tab (it says hello) but never answers a ping.
    spy.post({ v: 1, kind: 'hello', from: 'ghost' });
    await quiet(spy);
    const start = a.clock.now();
    await settleTabs([a], spy, a.client.billing.consume());
    expect(a.clock.now() - start).toBe(1_000);
    expect(backend.charged).toHaveLength(1);
    a.clock.advanceBy(30_000);
    const again = a.clock.now();
    await settleTabs([a], spy, a.client.billing.consume());
    expect(a.clock.now()).toBe(again);
    expect(backend.charged).toHaveLength(2);
  });

  it('Web Locks are used where given', async () => {
    const spy = spyChannel();
    const locks = new FakeLocks();
    const a = tab(new FakeBackend(quota()), { sync: tabSync({ locks }) });
    const done: unknown[] = [];
    a.client.billing.consume().then((result) => done.push(result));
    await runTabs([a], spy, () => done.length === 1);
    expect(locks.granted).toEqual(['unified-billing:generator_poster:consume']);
  });

  it('control: without sync, the same two clicks are two charges', async () => {
    const backend = new FakeBackend(quota());
    const a = tab(backend, { sync: undefined });
    const b = tab(backend, { sync: undefined });
    await Promise.all([a.client.billing.consume(), b.client.billing.consume()]);
    expect(backend.charged).toHaveLength(2);
  });

  it('malformed or foreign messages change nothing; messages carry no header values', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota());
    const a = tab(backend, { headers: { Authorization: 'Bearer secret-token' } });
    const b = tab(backend, {}, a.clock);
    for (const junk of [
      null,
      'state',
      { v: 2, kind: 'state', from: 'x', quota: null, freePeriodMs: 30_000 },
      { v: 1, kind: 'state', from: 'x', quota: { isEnabled: true, freeRemaining: -1 }, freePeriodMs: 0 },
      { v: 1, kind: 'state', from: 'x', quota: null, freePeriodMs: 'lots' },
      { v: 1, kind: 'claim', from: '' },
    ]) {
      spy.post(junk);
    }
    spy.post({ v: 1, kind: 'state', from: 'x', quota: null, freePeriodMs: 3_600_000 });
    await quiet(spy);
    expect(b.client.billing.getCachedUsage()).toBeNull();
    // The one valid message is clamped to one period.
    expect(await firstValueFrom(b.client.billing.freePeriodRemaining$)).toBe(30);
    await a.client.billing.getUsage();
    await quiet(spy);
    expect(JSON.stringify(spy.messages)).not.toContain('secret');
  });
});
