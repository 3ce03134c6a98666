import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

/**
 * A client whose first `getUsage()` pair is answered by the backend at once
 * but handed to the client only on `release()`: the answers are older than
 * anything answered in between.
 */
function firstPairHeld(patch: Parameters<typeof fixture>[0]) {
  const { client, backend } = fixture(patch);
  const count = backend.hold(PATH.count);
  const balance = backend.hold(PATH.balance);
  return {
    client,
    backend,
    release: async () => {
      count.release();
      balance.release();
      await settle();
    },
  };
}

describe('before the first getUsage() answers, a newer answer wins however the cache started', () => {
  it('a charge answered while the first GET pair is in flight is not rolled back by it', async () => {
    const { client, backend, release } = firstPairHeld({ freeRemaining: 3 });
    const usage = client.billing.getUsage();
    await settle();
    await expect(client.billing.consume()).resolves.toMatchObject({ freeRemaining: 2, isCredit: false });
    await release();
    await expect(usage).resolves.toMatchObject({ freeRemaining: 2 });
    expect(client.billing.getCachedUsage()).toMatchObject({ freeRemaining: 2, creditsBalance: 10 });
    expect(backend.charged).toHaveLength(1);
  });

  it('the balance refresh after a credit charge in that window is not rolled back either', async () => {
    const { client, release } = firstPairHeld({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    const usage = client.billing.getUsage();
    await settle();
    await expect(client.billing.consume()).resolves.toMatchObject({ isCredit: true });
    await release();
    await usage;
    expect(client.billing.getCachedUsage()).toMatchObject({ freeRemaining: 0, creditsBalance: 8 });
  });

  it('a refreshCredits() answered first keeps its top-up visible, and check() says credits', async () => {
    const { client, backend, release } = firstPairHeld({ freeRemaining: 0, balance: 0, creditsPerUse: 2 });
    const usage = client.billing.getUsage();
    await settle();
    backend.quota.balance = 50;
    await client.billing.refreshCredits();
    await release();
    await expect(usage).resolves.toMatchObject({ creditsBalance: 50 });
    expect(client.billing.check()).toEqual({ canProceed: true, reason: 'credits' });
  });
});
