import { PATH } from '../helpers/client-fixture';
import { FakeBackend, quota } from '../helpers/fake-backend';
import { VirtualClock } from '../helpers/virtual-clock';
import { closeTabs, quiet, spyChannel, tab } from './tabs';

afterEach(closeTabs);

// Issue 12, item 2: "Tabs with tabSync share what one of them fetched."
describe('refetch with tabSync', () => {
  it('what one tab refetches on its interval reaches the other tab, which sends nothing itself', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota({ freeRemaining: 0, balance: 40, creditsPerUse: 10 }));
    const clock = new VirtualClock(0);
    const polling = tab(backend, { refetch: { intervalMs: 5_000 } }, clock);
    const other = tab(backend, {}, clock);
    await polling.client.billing.getUsage();
    await quiet(spy);
    const seen: number[] = [];
    other.client.billing.usage$.subscribe((usage) => seen.push(usage.creditsBalance));
    // A top-up made elsewhere (another device): only the poll can learn it.
    backend.quota.balance = 90;
    clock.advanceBy(5_000);
    await quiet(spy);
    expect(seen).toEqual([40, 90]);
    expect(other.client.billing.getStatus()).toMatchObject({ loaded: true, loading: false });
    // Two usage fetches, both the polling tab's: the other tab learned both from the channel.
    expect(backend.requests.map((request) => request.path)).toEqual([
      PATH.count,
      PATH.balance,
      PATH.count,
      PATH.balance,
    ]);
  });
});
