import { liveClient, PATHS, useBackend } from './harness';

const backend = useBackend();

describe('over real HTTP: the free period', () => {
  test('a consume inside it sends no request and resolves with the cached free count', async () => {
    const live = liveClient(backend(), { freeRemaining: 3, freeTotal: 3 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    await live.run(billing.consume());
    const sent = live.requests().length;
    const result = await live.run(billing.consume());
    expect(result).toEqual({ freeRemaining: 2, isCredit: false, isBlacklisted: false });
    expect(live.requests()).toHaveLength(sent);
    expect(backend().getUser(live.user.token, 'generator_poster').modules['generator_poster']?.freeRemaining).toBe(2);
  });

  test('it lasts 30 s from the charged consume; free consumes inside do not extend it', async () => {
    const live = liveClient(backend(), { freeRemaining: 3, freeTotal: 3 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    await live.run(billing.consume());
    live.clock.advanceBy(20_000);
    await live.run(billing.consume());
    live.clock.advanceBy(9_999);
    expect(billing.check().reason).toBe('free_period');
    expect(billing.getCachedUsage()).toMatchObject({ inFreePeriod: true, freePeriodRemaining: 1 });
    live.clock.advanceBy(1);
    expect(billing.getCachedUsage()).toMatchObject({ inFreePeriod: false, freePeriodRemaining: 0 });
    await live.run(billing.consume());
    expect(live.requests(PATHS.consume)).toHaveLength(2);
  });

  test('freePeriodRemaining$ counts whole seconds down from 30, then 0', async () => {
    const live = liveClient(backend(), { freeRemaining: 1, freeTotal: 1 });
    const { billing } = live.client;
    const seen: number[] = [];
    billing.freePeriodRemaining$.subscribe((seconds) => seen.push(seconds));
    await live.run(billing.consume());
    expect(billing.getCachedUsage()).toBeNull();
    live.clock.advanceBy(400);
    expect(seen).toEqual([0, 30]);
    live.clock.advanceBy(29_600);
    expect(seen).toEqual([0, ...Array.from({ length: 30 }, (_, i) => 30 - i), 0]);
    expect(live.clock.pending).toBe(0);
  });

  test('getCachedUsage rounds the remaining time up to whole seconds', async () => {
    const live = liveClient(backend());
    const { billing } = live.client;
    await live.run(billing.getUsage());
    await live.run(billing.consume());
    const remaining = () => billing.getCachedUsage()?.freePeriodRemaining;
    expect(remaining()).toBe(30);
    live.clock.advanceBy(1);
    expect(remaining()).toBe(30);
    live.clock.advanceBy(999);
    expect(remaining()).toBe(29);
    live.clock.advanceBy(28_999);
    expect(remaining()).toBe(1);
  });
});
