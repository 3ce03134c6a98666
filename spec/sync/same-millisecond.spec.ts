import { FakeBackend, quota } from '../helpers/fake-backend';
import { VirtualClock } from '../helpers/virtual-clock';
import { closeTabs, quiet, spyChannel, tab } from './tabs';

afterEach(closeTabs);

// CI's random seed 1555259161 of the lifecycle model: two requests asked in the same millisecond,
// the second by a tab that had already heard of the first. The later one must win in both tabs.
describe('tabs that ask in the same millisecond', () => {
  it('a balance fetched after hearing of another tab reaches that tab, though both read the same wall time', async () => {
    const spy = spyChannel();
    const backend = new FakeBackend(quota({ freeRemaining: 0, balance: 0, creditsPerUse: 1 }));
    // The clock never moves: every request reads the same wall time.
    const clock = new VirtualClock(0);
    const first = tab(backend, {}, clock);
    await first.client.billing.getUsage();
    await quiet(spy);
    const second = tab(backend, {}, clock);
    await quiet(spy);
    backend.quota.balance = 4;
    await second.client.billing.getUsage();
    await quiet(spy);
    expect(second.client.billing.getCachedUsage()?.creditsBalance).toBe(4);
    expect(first.client.billing.getCachedUsage()?.creditsBalance).toBe(4);
  });
});
