import { isBillingError } from '../../lib';
import { liveClient, MODULE, PATHS, useBackend, wire } from './harness';

const backend = useBackend();

describe('over real HTTP: the billing priority', () => {
  test('getUsage sends both GETs in parallel, the module in the query, and reports what the backend holds', async () => {
    const live = liveClient(backend(), { freeRemaining: 2, freeTotal: 5, creditsPerUse: 3, creditsBalance: 40 });
    const usage = await live.run(live.client.billing.getUsage());
    expect(usage).toEqual({
      isEnabled: true,
      freeRemaining: 2,
      freeTotal: 5,
      creditsPerUse: 3,
      creditsBalance: 40,
      inFreePeriod: false,
      freePeriodRemaining: 0,
    });
    expect(live.wire.peak).toBe(2);
    expect(wire(live.requests()).sort()).toEqual([`GET ${PATHS.balance}`, `GET ${PATHS.count}`]);
    expect(live.requests(PATHS.count)[0]?.query).toEqual({ module: MODULE });
    expect(live.requests(PATHS.balance)[0]?.query).toEqual({});
  });

  test('an app key needing encoding reaches the backend intact', async () => {
    const appKey = 'poster & co/ü?x=1#';
    const live = liveClient(backend(), { freeRemaining: 1, freeTotal: 1 }, { appKey });
    await live.run(live.client.billing.getUsage());
    await live.run(live.client.billing.consume({ externalId: 'encoded-1' }));
    expect(live.requests(PATHS.count)[0]?.query).toEqual({ module: `generator_${appKey}` });
    expect(live.requests(PATHS.consume)[0]?.body).toEqual({ module: `generator_${appKey}`, external_id: 'encoded-1' });
    expect(
      backend()
        .charges()
        .filter((c) => c.token === live.user.token),
    ).toMatchObject([{ module: `generator_${appKey}` }]);
  });

  test('free quota, then free period, then credits, then insufficient: what check() says is what is charged', async () => {
    const live = liveClient(backend(), { freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 15 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    const reasons: string[] = [];
    const outcomes: string[] = [];
    for (let step = 0; step < 4; step++) {
      reasons.push(billing.check().reason);
      try {
        const result = await live.run(billing.consume());
        outcomes.push(result.isCredit ? 'credit' : `free ${result.freeRemaining}`);
      } catch (error) {
        outcomes.push(isBillingError(error) ? error.code : 'unknown');
      }
      // Past the free period (if one started) before the next step, except after the first charge.
      if (step !== 0) live.clock.advanceBy(30_000);
    }
    expect(reasons).toEqual(['free_count', 'free_period', 'credits', 'insufficient']);
    expect(outcomes).toEqual(['free 0', 'free 0', 'credit', 'insufficient_credits']);
    const charges = backend()
      .charges()
      .filter((c) => c.token === live.user.token);
    expect(charges.map((c) => [c.kind, c.amount])).toEqual([
      ['free', 1],
      ['credits', 10],
    ]);
    expect(backend().getUser(live.user.token).creditsBalance).toBe(5);
    expect(billing.getCachedUsage()).toMatchObject({ freeRemaining: 0, creditsBalance: 5, inFreePeriod: false });
  });

  test('check() and getCachedUsage() send nothing, before and after the first fetch', async () => {
    const live = liveClient(backend());
    const { billing } = live.client;
    expect(billing.getCachedUsage()).toBeNull();
    expect(billing.check()).toEqual({ canProceed: false, reason: 'insufficient' });
    expect(live.requests()).toEqual([]);
    await live.run(billing.getUsage());
    const sent = live.requests().length;
    for (let i = 0; i < 10; i++) {
      billing.check();
      billing.getCachedUsage();
    }
    expect(live.requests()).toHaveLength(sent);
  });

  test('outside a free period the backend decides even when the cache says insufficient', async () => {
    const live = liveClient(backend(), { freeRemaining: 0, creditsPerUse: 10, creditsBalance: 0 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    expect(billing.check().reason).toBe('insufficient');
    backend().setUser(live.user.token, { creditsBalance: 30 });
    const result = await live.run(billing.consume());
    expect(result).toEqual({ freeRemaining: 0, isCredit: true, isBlacklisted: false });
    expect(billing.getCachedUsage()?.creditsBalance).toBe(20);
  });

  test('a disabled module is reported as received and charged as usual', async () => {
    const live = liveClient(backend(), { isEnabled: false, freeRemaining: 1, freeTotal: 1 });
    const usage = await live.run(live.client.billing.getUsage());
    expect(usage.isEnabled).toBe(false);
    expect(live.client.billing.check().reason).toBe('free_count');
    await live.run(live.client.billing.consume());
    expect(
      backend()
        .charges()
        .filter((c) => c.token === live.user.token),
    ).toHaveLength(1);
  });
});
