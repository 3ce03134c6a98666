import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

describe('answers are ranked by the attempt that was answered, not by the first attempt of the call', () => {
  it('a retried balance GET sent after a refresh wins over that refresh (its answer is newer)', async () => {
    const { client, backend, clock } = fixture({ freeRemaining: 0, balance: 0, creditsPerUse: 1 });
    void backend.lose(PATH.balance);
    const usage = client.billing.getUsage();
    await settle();
    clock.advanceBy(10_000); // the first balance attempt times out; its retry waits for a backoff
    await settle();
    await client.billing.refreshCredits(); // sent now, answered 0
    backend.quota.balance = 3; // a top-up lands
    for (let i = 0; i < 10; i++) {
      clock.advanceBy(100); // the retry goes out after the refresh, and is answered 3
      await settle();
    }
    await expect(usage).resolves.toMatchObject({ creditsBalance: 3 });
    expect(client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 3 });
    expect(client.billing.check().reason).toBe('credits');
  });
});
