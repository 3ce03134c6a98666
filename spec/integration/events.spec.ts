import type { UsageInfo } from '../../lib';
import { liveClient, useBackend } from './harness';

const backend = useBackend();

describe('over real HTTP: onChange and usage$', () => {
  test('onChange: not on registration; on load, charge, refresh and period end; not for a free-period consume', async () => {
    const live = liveClient(backend(), { freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 30 });
    const { billing } = live.client;
    const seen: UsageInfo[] = [];
    billing.onChange((usage) => seen.push(usage));
    expect(seen).toEqual([]);
    await live.run(billing.getUsage());
    expect(seen.map((u) => u.freeRemaining)).toEqual([1]);
    await live.run(billing.consume());
    expect(seen.at(-1)).toMatchObject({ freeRemaining: 0, inFreePeriod: true, freePeriodRemaining: 30 });
    const beforeFree = seen.length;
    await live.run(billing.consume());
    expect(seen).toHaveLength(beforeFree);
    live.clock.advanceBy(30_000);
    expect(seen.at(-1)).toMatchObject({ inFreePeriod: false, freePeriodRemaining: 0 });
    backend().setUser(live.user.token, { creditsBalance: 70 });
    await live.run(billing.refreshCredits());
    expect(seen.at(-1)?.creditsBalance).toBe(70);
    // Every delivery differs from the previous one in something other than the ticking seconds.
    const keys = seen.map(({ freePeriodRemaining: _ticking, ...rest }) => JSON.stringify(rest));
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('the function onChange returns unsubscribes', async () => {
    const live = liveClient(backend());
    const seen: UsageInfo[] = [];
    const off = live.client.billing.onChange((usage) => seen.push(usage));
    off();
    await live.run(live.client.billing.getUsage());
    expect(seen).toEqual([]);
  });

  test('usage$ is silent before the first fetch, replays the latest, and completes on dispose', async () => {
    const live = liveClient(backend(), { freeRemaining: 2, freeTotal: 2 });
    const { billing } = live.client;
    const early: number[] = [];
    billing.usage$.subscribe((usage) => early.push(usage.freeRemaining));
    expect(early).toEqual([]);
    await live.run(billing.getUsage());
    await live.run(billing.consume());
    const late: number[] = [];
    let completed = false;
    billing.usage$.subscribe({ next: (usage) => late.push(usage.freeRemaining), complete: () => (completed = true) });
    expect(early).toEqual([2, 1]);
    expect(late).toEqual([1]);
    billing.dispose();
    expect(completed).toBe(true);
  });
});
