import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

// Issue 30 point 4: the balance refresh after this client's own charge goes out at once, so a consume
// never waits on a balance request sent before it; the older answer, landing last, changes nothing.
describe('the balance refresh after a charge', () => {
  it('a consume that charges credits while a balance request is held resolves without waiting for it', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    await client.billing.getUsage();
    const held = backend.hold(PATH.balance);
    const refresh = client.billing.refreshCredits();
    await held.arrived; // the backend answered 10; the answer waits on the wire

    let outcome: unknown;
    void client.billing.consume().then((result) => (outcome = result));
    await settle();
    // On the wire: the usage pair, the held refresh, the POST, and the charge's own balance GET.
    expect(backend.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      `GET ${PATH.count}`,
      `GET ${PATH.balance}`,
      `GET ${PATH.balance}`,
      `POST ${PATH.consume}`,
      `GET ${PATH.balance}`,
    ]);
    expect(outcome).toEqual({ freeRemaining: 0, isCredit: true, isBlacklisted: false });
    expect(client.billing.getCachedUsage()?.creditsBalance).toBe(8);

    held.release();
    await refresh;
    // The held answer was read before the charge: it is older and loses.
    expect(client.billing.getCachedUsage()?.creditsBalance).toBe(8);
  });
});
