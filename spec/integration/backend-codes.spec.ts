import { BillingError } from '../../lib';
import { liveClient, PATHS, useBackend, wire } from './harness';

const backend = useBackend();
const chargesOf = (token: string) =>
  backend()
    .charges()
    .filter((c) => c.token === token);

describe('over real HTTP: credits, 20101 and 20102', () => {
  test('a credit charge is followed by exactly one balance refresh, which the cache takes', async () => {
    const live = liveClient(backend(), { freeRemaining: 0, creditsPerUse: 10, creditsBalance: 25 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    backend().clearLog();
    // A top-up the client cannot know of: only a real refresh can report 90.
    backend().setUser(live.user.token, { creditsBalance: 100 });
    const result = await live.run(billing.consume());
    expect(result).toEqual({ freeRemaining: 0, isCredit: true, isBlacklisted: false });
    expect(wire(live.requests())).toEqual([`POST ${PATHS.consume}`, `GET ${PATHS.balance}`]);
    expect(billing.getCachedUsage()?.creditsBalance).toBe(90);
  });

  test('a free charge refreshes nothing', async () => {
    const live = liveClient(backend(), { freeRemaining: 1, freeTotal: 1 });
    await live.run(live.client.billing.getUsage());
    backend().clearLog();
    await live.run(live.client.billing.consume());
    expect(wire(live.requests())).toEqual([`POST ${PATHS.consume}`]);
  });

  test('when the refresh fails the consume still resolves and the cached balance is lowered by the price', async () => {
    const live = liveClient(backend(), { freeRemaining: 0, creditsPerUse: 10, creditsBalance: 25 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    backend().failNext(PATHS.balance, 3, { kind: 'status', status: 503 });
    const result = await live.run(billing.consume());
    expect(result.isCredit).toBe(true);
    expect(
      live
        .requests(PATHS.balance)
        .slice(1)
        .map((r) => r.status),
    ).toEqual([503, 503, 503]);
    expect(billing.getCachedUsage()?.creditsBalance).toBe(15);
    expect(chargesOf(live.user.token)).toHaveLength(1);
  });

  test('20101 rejects insufficient_credits with the externalId; no free period, no charge', async () => {
    const live = liveClient(backend(), { freeRemaining: 0, creditsPerUse: 10, creditsBalance: 5 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    const error: unknown = await live.run(billing.consume({ externalId: 'broke-1' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillingError);
    expect(error).toMatchObject({ code: 'insufficient_credits', backendCode: 20101, externalId: 'broke-1' });
    expect(billing.check().reason).toBe('insufficient');
    await live.run(billing.consume()).catch(() => undefined);
    expect(live.requests(PATHS.consume).map((r) => r.code)).toEqual([20101, 20101]);
    expect(chargesOf(live.user.token)).toEqual([]);
  });

  test('20101 while the cache still showed free uses sets the cached free count to 0', async () => {
    const live = liveClient(backend(), { freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 0 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    backend().setUser(live.user.token, { freeRemaining: 0 });
    await expect(live.run(billing.consume())).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(billing.getCachedUsage()?.freeRemaining).toBe(0);
  });

  test('20102 resolves blacklisted with the cached free count; no free period, no charge', async () => {
    const live = liveClient(backend(), { freeRemaining: 2, freeTotal: 3, blacklisted: true });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    const result = await live.run(billing.consume());
    expect(result).toEqual({ freeRemaining: 2, isCredit: false, isBlacklisted: true });
    expect(billing.check().reason).toBe('free_count');
    await live.run(billing.consume());
    expect(live.requests(PATHS.consume).map((r) => r.code)).toEqual([20102, 20102]);
    expect(chargesOf(live.user.token)).toEqual([]);
  });

  test('20102 before any getUsage reports a free count of 0', async () => {
    const live = liveClient(backend(), { freeRemaining: 2, freeTotal: 3, blacklisted: true });
    const result = await live.run(live.client.billing.consume());
    expect(result).toEqual({ freeRemaining: 0, isCredit: false, isBlacklisted: true });
  });
});
