import { until } from '../helpers/waiting';
import { clientFor, liveClient, makeUser, PATHS, useBackend } from './harness';

const backend = useBackend();

describe('over real HTTP: the backend’s contract as the client sees it', () => {
  test('an unknown token: 401, not retried, and the token appears in no error', async () => {
    const stranger = makeUser({ token: 'never-registered-secret' });
    const live = clientFor(backend(), stranger);
    const usageError = await live.run(live.client.billing.getUsage()).catch((e: unknown) => e);
    expect(usageError).toMatchObject({ code: 'http', status: 401 });
    const consumeError = await live.run(live.client.billing.consume()).catch((e: unknown) => e);
    expect(consumeError).toMatchObject({ code: 'http', status: 401, externalId: expect.any(String) });
    expect(live.requests(PATHS.consume)).toHaveLength(1);
    expect(live.requests(PATHS.count)).toHaveLength(1);
    for (const error of [usageError, consumeError]) {
      expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(stranger.token);
    }
  });

  test('one user’s consumes never touch another user’s quota or balance', async () => {
    const alice = liveClient(backend(), { freeRemaining: 1, freeTotal: 1, creditsPerUse: 5, creditsBalance: 20 });
    const bob = liveClient(backend(), { freeRemaining: 1, freeTotal: 1, creditsPerUse: 5, creditsBalance: 20 });
    await alice.run(alice.client.billing.consume({ externalId: 'shared-id' }));
    alice.clock.advanceBy(30_000);
    await alice.run(alice.client.billing.consume());
    // The same external_id is a new operation for another user.
    const bobResult = await bob.run(bob.client.billing.consume({ externalId: 'shared-id' }));
    expect(bobResult).toEqual({ freeRemaining: 0, isCredit: false, isBlacklisted: false });
    const bobUsage = await bob.run(bob.client.billing.getUsage());
    expect(bobUsage).toMatchObject({ freeRemaining: 0, creditsBalance: 20 });
    expect((await alice.run(alice.client.billing.getUsage())).creditsBalance).toBe(15);
  });

  test('free quota is per app key (module), the credits wallet is shared', async () => {
    const poster = liveClient(backend(), { freeRemaining: 1, freeTotal: 1, creditsPerUse: 5, creditsBalance: 20 });
    const video = clientFor(backend(), poster.user, { appKey: 'video' });
    await poster.run(poster.client.billing.consume());
    poster.clock.advanceBy(30_000);
    await poster.run(poster.client.billing.consume());
    const videoUsage = await video.run(video.client.billing.getUsage());
    expect(videoUsage).toMatchObject({ freeRemaining: 1, creditsBalance: 15 });
    expect(video.requests(PATHS.count).at(-1)?.query).toEqual({ module: 'generator_video' });
  });

  test('a blacklist set on the backend between two consumes takes effect at once', async () => {
    const live = liveClient(backend(), { freeRemaining: 5, freeTotal: 5 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    await live.run(billing.consume());
    live.clock.advanceBy(30_000);
    backend().setUser(live.user.token, { blacklisted: true });
    expect(await live.run(billing.consume())).toEqual({ freeRemaining: 4, isCredit: false, isBlacklisted: true });
  });

  test('the parallel GETs do not wait for each other: the balance is answered while the count is held', async () => {
    const live = liveClient(backend(), { creditsBalance: 7 });
    // The count's delay runs on Jest's clock (the client's is virtual, the sockets real): it
    // holds the count until the test lets it go, however slow the machine.
    jest.useFakeTimers({ doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate'] });
    let usage: ReturnType<typeof live.client.billing.getUsage>;
    try {
      backend().failNext(PATHS.count, 1, { kind: 'delay', ms: 1_000 });
      usage = live.client.billing.getUsage();
      usage.catch(() => undefined);
      await until(
        () => live.requests(PATHS.balance)[0]?.status === 200 && live.requests(PATHS.count).length === 1,
        'the balance answered and the count received',
      );
      expect(live.requests(PATHS.count)[0]?.status).toBeNull();
      jest.advanceTimersByTime(1_000);
    } finally {
      jest.useRealTimers();
    }
    expect((await live.run(usage)).creditsBalance).toBe(7);
  });
});
