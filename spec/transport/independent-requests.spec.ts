import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

// Issue 17 item 3: each request has its own abort and its own timeout. Before,
// requests shared an abort signal by fours: one request's timeout or abort
// aborted the others and sent them again (consume POSTs included).
describe('requests are independent', () => {
  it("a balance GET's timeout neither aborts nor re-sends a consume POST in flight", async () => {
    const { client, backend, clock } = fixture({ freeRemaining: 3 }, { retries: 0 });
    await client.billing.getUsage();
    backend.holding = true;
    const refresh = client.credits.getBalance().catch((error: unknown) => error);
    clock.advanceBy(5_000);
    const consume = client.billing.consume({ externalId: 'op-kept' });
    await settle();
    clock.advanceBy(5_000);
    await settle();
    expect(await refresh).toMatchObject({ code: 'timeout' });
    backend.release();
    await settle();
    expect(await consume).toMatchObject({ isCredit: false, freeRemaining: 2 });
    expect(backend.count(PATH.consume)).toBe(1);
    expect(backend.charged).toEqual(['op-kept']);
  });

  it('aborting a consume neither aborts nor re-sends a balance GET in flight', async () => {
    const { client, backend } = fixture({ freeRemaining: 3 });
    await client.billing.getUsage();
    backend.holding = true;
    const refresh = client.credits.getBalance();
    const controller = new AbortController();
    const consume = client.billing
      .consume({ externalId: 'op-gone', signal: controller.signal })
      .catch((e: unknown) => e);
    await settle();
    controller.abort();
    expect(await consume).toMatchObject({ code: 'aborted' });
    await settle();
    backend.release();
    expect(await refresh).toBe(10);
    expect(backend.count(PATH.balance)).toBe(2);
  });
});
