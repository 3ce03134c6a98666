import type { UsageInfo } from '../../lib/shared/types';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

describe('the free period', () => {
  it('ends 30 s after the charged consume; free consumes inside do not extend it', async () => {
    const { client, backend, clock } = fixture();
    await client.billing.getUsage();
    await client.billing.consume();
    clock.advanceBy(20_000);
    await client.billing.consume();
    expect(backend.count(PATH.consume)).toBe(1);
    clock.advanceBy(9_999);
    expect(client.billing.check().reason).toBe('free_period');
    clock.advanceBy(1);
    expect(client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: false, freePeriodRemaining: 0 });
    expect(client.billing.check().reason).toBe('free_count');
    await client.billing.consume();
    expect(backend.count(PATH.consume)).toBe(2);
  });

  it('freePeriodRemaining counts whole seconds, rounded up', async () => {
    const { client, clock } = fixture();
    await client.billing.getUsage();
    await client.billing.consume();
    expect(client.billing.getCachedUsage()?.freePeriodRemaining).toBe(30);
    clock.advanceBy(1);
    expect(client.billing.getCachedUsage()?.freePeriodRemaining).toBe(30);
    clock.advanceBy(999);
    expect(client.billing.getCachedUsage()?.freePeriodRemaining).toBe(29);
    clock.advanceBy(28_500);
    expect(client.billing.getCachedUsage()?.freePeriodRemaining).toBe(1);
  });

  it('arms no timer when no free period is active, and one while it is', async () => {
    const { client, clock } = fixture();
    await client.billing.getUsage();
    expect(clock.pending).toBe(0);
    await client.billing.consume();
    expect(clock.pending).toBe(1);
    clock.advanceBy(30_000);
    expect(clock.pending).toBe(0);
  });

  it('starts no free period when the consume fails to decode', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    const before = client.billing.getCachedUsage();
    backend.script(PATH.consume, { body: '{"code":0,"message":"ok","data":{"free_remaining":"2"}}' });
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'decode' });
    expect(client.billing.getCachedUsage()).toEqual(before);
    expect(client.billing.check().reason).toBe('free_count');
  });
});

describe('freePeriodRemaining$', () => {
  it('emits 0 when idle, then each second of a period, then 0', async () => {
    const { client, clock } = fixture();
    const seen: number[] = [];
    client.billing.freePeriodRemaining$.subscribe((s) => seen.push(s));
    await client.billing.consume();
    clock.advanceBy(30_000);
    expect(seen).toEqual([0, ...Array.from({ length: 30 }, (_, i) => 30 - i), 0]);
  });

  it("a subscriber joining mid-period ticks on the period's second boundaries", async () => {
    const { client, clock } = fixture();
    await client.billing.consume();
    clock.advanceBy(27_400);
    const seen: Array<[number, number]> = [];
    client.billing.freePeriodRemaining$.subscribe((s) => seen.push([clock.now() - 1_000_000, s]));
    clock.advanceBy(3_000);
    expect(seen).toEqual([
      [27_400, 3],
      [28_000, 2],
      [29_000, 1],
      [30_000, 0],
    ]);
  });
});

describe('onChange and usage$', () => {
  it('onChange fires on each quota change, not on registration, and unsubscribes', async () => {
    const { client, backend, clock } = fixture();
    await client.billing.getUsage();
    const seen: UsageInfo[] = [];
    const off = client.billing.onChange((u) => seen.push(u));
    expect(seen).toHaveLength(0);
    await client.billing.consume();
    await client.billing.consume();
    clock.advanceBy(30_000);
    await client.billing.getUsage();
    expect(seen.map((u) => [u.freeRemaining, u.inFreePeriod])).toEqual([
      [2, true],
      [2, false],
    ]);
    off();
    backend.quota.freeRemaining = 0;
    await client.billing.getUsage();
    expect(seen).toHaveLength(2);
  });

  it('onChange registered before the first fetch delivers it', async () => {
    const { client } = fixture();
    const seen: UsageInfo[] = [];
    client.billing.onChange((u) => seen.push(u));
    await client.billing.getUsage();
    expect(seen).toHaveLength(1);
  });

  it('usage$ emits nothing before a fetch, then replays the latest to each subscriber', async () => {
    const { client } = fixture();
    const early: UsageInfo[] = [];
    client.billing.usage$.subscribe((u) => early.push(u));
    expect(early).toHaveLength(0);
    await client.billing.getUsage();
    await client.billing.consume();
    const late: UsageInfo[] = [];
    client.billing.usage$.subscribe((u) => late.push(u));
    expect(early.map((u) => u.freeRemaining)).toEqual([3, 2]);
    expect(late.map((u) => u.freeRemaining)).toEqual([2]);
  });

  it('a credit charge emits once when the refresh confirms the lowered balance', async () => {
    const { client } = fixture({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    await client.billing.getUsage();
    const seen: number[] = [];
    client.billing.onChange((u) => seen.push(u.creditsBalance));
    await client.billing.consume();
    await settle();
    expect(seen).toEqual([8]);
  });
});
