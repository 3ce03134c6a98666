import { externalIds, liveClient, PATHS, useBackend } from './harness';

const backend = useBackend();
const chargesOf = (token: string) =>
  backend()
    .charges()
    .filter((c) => c.token === token);

describe('over real HTTP: retries never charge twice', () => {
  test.each([
    ['an HTTP 503', { kind: 'status', status: 503 } as const],
    ['a 429 with Retry-After', { kind: 'status', status: 429, retryAfter: '2' } as const],
    ['a dropped connection', { kind: 'drop' } as const],
    ['a connection dropped after the charge', { kind: 'dropAfterApply' } as const],
    ['an answer that never finishes (timeout)', { kind: 'stall' } as const],
  ])('after %s the POST is retried with the same external_id and charged once', async (_, fault) => {
    const live = liveClient(backend(), { freeRemaining: 3, freeTotal: 3 }, { timeoutMs: 5_000 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    backend().failNext(PATHS.consume, 1, fault);
    const result = await live.run(billing.consume({ externalId: `retry-${fault.kind}` }));
    expect(result).toEqual({ freeRemaining: 2, isCredit: false, isBlacklisted: false });
    expect(externalIds(live.wire.sent)).toEqual([`retry-${fault.kind}`, `retry-${fault.kind}`]);
    expect(live.requests(PATHS.consume)).toHaveLength(2);
    expect(chargesOf(live.user.token)).toHaveLength(1);
    expect(billing.check().reason).toBe('free_period');
  });

  test('a generated externalId is kept across retries too', async () => {
    const live = liveClient(backend());
    backend().failNext(PATHS.consume, 2, { kind: 'status', status: 502 });
    await live.run(live.client.billing.consume());
    const ids = externalIds(live.wire.sent);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(chargesOf(live.user.token)).toHaveLength(1);
  });

  test('when retries run out the error carries the externalId, and a caller retry with it charges once', async () => {
    const live = liveClient(backend(), { freeRemaining: 3, freeTotal: 3 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    backend().failNext(PATHS.consume, 2, { kind: 'dropAfterApply' });
    backend().failNext(PATHS.consume, 1, { kind: 'status', status: 503 });
    const error = await live.run(billing.consume()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'http', status: 503, externalId: expect.any(String) });
    expect(billing.check().reason).toBe('free_count');
    const { externalId } = error as { externalId: string };
    const result = await live.run(billing.consume({ externalId }));
    expect(result.freeRemaining).toBe(2);
    expect(chargesOf(live.user.token)).toHaveLength(1);
  });

  test('a malformed answer is a decode error: not retried, cache unchanged, no free period', async () => {
    const live = liveClient(backend(), { freeRemaining: 3, freeTotal: 3 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    const before = billing.getCachedUsage();
    backend().failNext(PATHS.consume, 1, {
      kind: 'malformed',
      body: '{"code":0,"message":"ok","data":{"free_remaining":-1}}',
    });
    await expect(live.run(billing.consume())).rejects.toMatchObject({ code: 'decode' });
    expect(live.requests(PATHS.consume)).toHaveLength(1);
    expect(billing.getCachedUsage()).toEqual(before);
    expect(billing.check().reason).toBe('free_count');
  });

  test('a GET that fails once is retried and getUsage still resolves', async () => {
    const live = liveClient(backend(), { creditsBalance: 12 });
    backend().failNext(PATHS.balance, 1, { kind: 'drop' });
    const usage = await live.run(live.client.billing.getUsage());
    expect(usage.creditsBalance).toBe(12);
    expect(live.requests(PATHS.balance).map((r) => r.status)).toEqual([null, 200]);
  });
});
