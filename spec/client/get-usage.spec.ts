import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

describe('getUsage()', () => {
  it('sends both GETs before either answers, with the URL-encoded module', async () => {
    const { client, backend } = fixture({}, { appKey: 'a&b c/é' });
    backend.holding = true;
    const usage = client.billing.getUsage();
    await settle();
    expect(backend.requests.map((r) => r.path).sort()).toEqual([PATH.balance, PATH.count]);
    expect(backend.requests.find((r) => r.path === PATH.count)?.query).toEqual({ module: 'generator_a&b c/é' });
    backend.holding = false;
    backend.release();
    await expect(usage).resolves.toEqual({
      isEnabled: true,
      freeRemaining: 3,
      freeTotal: 5,
      creditsPerUse: 2,
      creditsBalance: 10,
      inFreePeriod: false,
      freePeriodRemaining: 0,
    });
  });

  it('five concurrent calls share one pair of GETs', async () => {
    const { client, backend } = fixture();
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => client.billing.getUsage()));
    expect(backend.requests).toHaveLength(2);
    expect(new Set(all.map((u) => u.freeRemaining))).toEqual(new Set([3]));
  });

  it('refetches on the next call once the first has settled', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    backend.quota.freeRemaining = 1;
    await expect(client.billing.getUsage()).resolves.toMatchObject({ freeRemaining: 1 });
    expect(backend.requests).toHaveLength(4);
  });

  it('reports isEnabled as received', async () => {
    const { client } = fixture({ isEnabled: false });
    await expect(client.billing.getUsage()).resolves.toMatchObject({ isEnabled: false });
  });
});

describe('getCachedUsage() and check()', () => {
  it('return null / insufficient before the first fetch and send nothing', () => {
    const { client, backend } = fixture();
    expect(client.billing.getCachedUsage()).toBeNull();
    expect(client.billing.check()).toEqual({ canProceed: false, reason: 'insufficient' });
    expect(backend.requests).toHaveLength(0);
  });

  it('answer from the cache without a request', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    const before = backend.requests.length;
    expect(client.billing.getCachedUsage()).toMatchObject({ freeRemaining: 3, creditsBalance: 10 });
    expect(client.billing.check()).toEqual({ canProceed: true, reason: 'free_count' });
    expect(backend.requests).toHaveLength(before);
  });

  it.each([
    [{ freeRemaining: 2 }, { canProceed: true, reason: 'free_count' }],
    [
      { freeRemaining: 0, balance: 2, creditsPerUse: 2 },
      { canProceed: true, reason: 'credits' },
    ],
    [
      { freeRemaining: 0, balance: 1, creditsPerUse: 2 },
      { canProceed: false, reason: 'insufficient' },
    ],
  ])('with %j decides %j', async (patch, verdict) => {
    const { client } = fixture(patch);
    await client.billing.getUsage();
    expect(client.billing.check()).toEqual(verdict);
  });
});

describe('credits', () => {
  it('getBalance() and refreshCredits() read the balance GET and update the cache', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    backend.quota.balance = 42;
    await expect(client.credits.getBalance()).resolves.toBe(42);
    backend.quota.balance = 7;
    await client.billing.refreshCredits();
    expect(client.billing.getCachedUsage()?.creditsBalance).toBe(7);
    expect(backend.count(PATH.balance)).toBe(3);
  });

  it('concurrent refreshes share one request', async () => {
    const { client, backend } = fixture();
    await Promise.all([client.billing.refreshCredits(), client.billing.refreshCredits(), client.credits.getBalance()]);
    expect(backend.count(PATH.balance)).toBe(1);
  });
});

describe('onChange()', () => {
  it('hears a change of one field alone (a top-up seen by refreshCredits)', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    const heard: number[] = [];
    client.billing.onChange((usage) => heard.push(usage.creditsBalance));
    backend.quota.balance = 17;
    await client.billing.refreshCredits();
    expect(heard).toEqual([17]);
    expect(client.billing.getCachedUsage()).toMatchObject({ freeRemaining: 3, creditsBalance: 17 });
  });
});
