import { BillingError } from '../../lib/shared/errors';
import { cleanup, coded, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

describe('consume()', () => {
  it('charges free quota, then sends no request inside the free period', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    await expect(client.billing.consume()).resolves.toEqual({
      freeRemaining: 2,
      isCredit: false,
      isBlacklisted: false,
    });
    expect(client.billing.check()).toEqual({ canProceed: true, reason: 'free_period' });
    const before = backend.requests.length;
    await expect(client.billing.consume()).resolves.toEqual({
      freeRemaining: 2,
      isCredit: false,
      isBlacklisted: false,
    });
    expect(backend.requests).toHaveLength(before);
    expect(backend.charged).toHaveLength(1);
  });

  it('sends module and a generated UUID external_id as JSON', async () => {
    const { client, backend } = fixture();
    await client.billing.consume();
    const post = backend.requests.find((r) => r.path === PATH.consume);
    expect(post?.method).toBe('POST');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(post?.body).toEqual({ module: 'generator_poster', external_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('uses the given externalId', async () => {
    const { client, backend } = fixture();
    await client.billing.consume({ externalId: 'export-42' });
    expect(backend.charged).toEqual(['export-42']);
  });

  it('after a credit charge refreshes the balance exactly once before resolving', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    await client.billing.getUsage();
    const balanceBefore = backend.count(PATH.balance);
    await expect(client.billing.consume()).resolves.toEqual({ freeRemaining: 0, isCredit: true, isBlacklisted: false });
    expect(backend.count(PATH.balance)).toBe(balanceBefore + 1);
    expect(client.billing.getCachedUsage()?.creditsBalance).toBe(8);
  });

  it('a free-quota charge refreshes nothing', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    await client.billing.consume();
    expect(backend.count(PATH.balance)).toBe(1);
  });

  it('a failed refresh after a credit charge still resolves and lowers the cached balance by the price', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 10, creditsPerUse: 3 });
    await client.billing.getUsage();
    backend.script(PATH.balance, { status: 400, body: coded(1) });
    await expect(client.billing.consume()).resolves.toMatchObject({ isCredit: true });
    expect(client.billing.getCachedUsage()?.creditsBalance).toBe(7);
  });

  it('20102 resolves as blacklisted with the cached free count and starts no free period', async () => {
    const { client, backend } = fixture({ blacklisted: true, freeRemaining: 4 });
    await client.billing.getUsage();
    await expect(client.billing.consume()).resolves.toEqual({ freeRemaining: 4, isCredit: false, isBlacklisted: true });
    expect(client.billing.getCachedUsage()?.inFreePeriod).toBe(false);
    await client.billing.consume();
    expect(backend.count(PATH.consume)).toBe(2);
  });

  it('20102 before any fetch reports 0 free uses', async () => {
    const { client } = fixture({ blacklisted: true });
    await expect(client.billing.consume()).resolves.toEqual({ freeRemaining: 0, isCredit: false, isBlacklisted: true });
  });

  it('20101 rejects with insufficient_credits carrying the externalId, and starts no free period', async () => {
    const { client } = fixture({ freeRemaining: 0, balance: 1 });
    await client.billing.getUsage();
    const error = await client.billing.consume({ externalId: 'x-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillingError);
    expect(error).toMatchObject({ code: 'insufficient_credits', backendCode: 20101, externalId: 'x-1' });
    expect(client.billing.check()).toEqual({ canProceed: false, reason: 'insufficient' });
  });

  it('asks the backend even when the cache says insufficient', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 0 });
    await client.billing.getUsage();
    backend.quota.balance = 100;
    await expect(client.billing.consume()).resolves.toMatchObject({ isCredit: true });
  });

  it('an unknown code rejects with backend, carrying backendCode and the message', async () => {
    const { client, backend } = fixture();
    backend.script(PATH.consume, { body: coded(30001, 'module disabled') });
    await expect(client.billing.consume({ externalId: 'e' })).rejects.toMatchObject({
      code: 'backend',
      backendCode: 30001,
      externalId: 'e',
      message: expect.stringContaining('module disabled'),
    });
  });

  it('two concurrent consumes make one POST; the second falls in the free period', async () => {
    const { client, backend } = fixture();
    backend.holding = true;
    const first = client.billing.consume();
    const second = client.billing.consume();
    await settle();
    expect(backend.count(PATH.consume)).toBe(1);
    backend.holding = false;
    backend.release();
    const results = await Promise.all([first, second]);
    expect(results.map((r) => r.freeRemaining)).toEqual([2, 0]);
    expect(backend.count(PATH.consume)).toBe(1);
    expect(backend.charged).toHaveLength(1);
  });

  it('queued consumes run in call order after a failure', async () => {
    const { client, backend } = fixture();
    backend.script(PATH.consume, { body: coded(30001) });
    const first = client.billing.consume({ externalId: 'a' });
    const second = client.billing.consume({ externalId: 'b' });
    await expect(first).rejects.toMatchObject({ code: 'backend' });
    await expect(second).resolves.toMatchObject({ freeRemaining: 2 });
    expect(
      backend.requests
        .filter((r) => r.path === PATH.consume)
        .map((r) => (r.body as { external_id: string }).external_id),
    ).toEqual(['a', 'b']);
  });
});
