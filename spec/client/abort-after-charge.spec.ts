import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

/** A credit-only user whose balance refresh after the charge is held: the window between "charged" and "resolved". */
async function chargedRefreshHeld() {
  const setup = fixture({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
  await setup.client.billing.getUsage();
  const refresh = setup.backend.hold(PATH.balance);
  const controller = new AbortController();
  const consume = setup.client.billing.consume({ externalId: 'paid-1', signal: controller.signal });
  await refresh.arrived;
  expect(setup.backend.charged).toEqual(['paid-1']);
  return { ...setup, controller, consume, refresh };
}

describe('once the backend has answered "charged", the consume succeeds', () => {
  it('an abort during the balance refresh resolves with the charge (the refresh is cut short)', async () => {
    const { client, controller, consume } = await chargedRefreshHeld();
    controller.abort();
    await expect(consume).resolves.toEqual({ freeRemaining: 0, isCredit: true, isBlacklisted: false });
    expect(client.billing.check().reason).toBe('free_period');
    expect(client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 8, inFreePeriod: true });
  });

  it('dispose() during the balance refresh resolves with the charge, not disposed', async () => {
    const { client, consume } = await chargedRefreshHeld();
    client.billing.dispose();
    await expect(consume).resolves.toEqual({ freeRemaining: 0, isCredit: true, isBlacklisted: false });
  });

  it('an abort before the answer still rejects aborted with the externalId, and charges nothing', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    backend.holding = true;
    const controller = new AbortController();
    const consume = client.billing.consume({ externalId: 'cut-1', signal: controller.signal });
    await settle();
    controller.abort();
    await expect(consume).rejects.toMatchObject({ code: 'aborted', externalId: 'cut-1' });
    backend.holding = false;
    backend.release();
    await settle();
    expect(backend.charged).toEqual([]);
    expect(client.billing.check().reason).not.toBe('free_period');
  });
});
