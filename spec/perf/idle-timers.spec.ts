import { cleanup, coded, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

// Idle cost: with no free period active and nothing in flight, the client
// holds no timer at all (VirtualClock.pending counts armed timers).
describe('no timer is armed while idle', () => {
  it('after creation, after getUsage() and after a credits refresh', async () => {
    const { client, clock } = fixture();
    expect(clock.pending).toBe(0);
    await client.billing.getUsage();
    expect(clock.pending).toBe(0);
    await client.billing.refreshCredits();
    expect(clock.pending).toBe(0);
  });

  it('while getUsage() is in flight, only the timeouts of its two GETs; none once they answered', async () => {
    const { client, backend, clock } = fixture();
    backend.holding = true;
    const usage = client.billing.getUsage();
    await settle();
    expect(clock.pending).toBe(2);
    backend.release();
    await usage;
    expect(clock.pending).toBe(0);
  });

  it('after a free period ends, including one a countdown subscriber watched', async () => {
    const { client, clock } = fixture();
    await client.billing.getUsage();
    const seen: number[] = [];
    const countdown = client.billing.freePeriodRemaining$.subscribe((seconds) => seen.push(seconds));
    await client.billing.consume();
    expect(clock.pending).toBeGreaterThan(0);
    clock.advanceBy(30_000);
    expect(seen.at(-1)).toBe(0);
    expect(clock.pending).toBe(0);
    countdown.unsubscribe();
  });

  it('after a credits charge and its balance refresh, once the period is over', async () => {
    const { client, backend, clock } = fixture({ freeRemaining: 0 });
    await client.billing.getUsage();
    await client.billing.consume();
    expect(backend.count(PATH.balance)).toBe(2);
    clock.advanceBy(30_000);
    expect(clock.pending).toBe(0);
  });

  it('after consumes that start no free period: insufficient, blacklisted, backend error', async () => {
    const { client, backend, clock } = fixture({ freeRemaining: 0, balance: 0 });
    await client.billing.getUsage();
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(clock.pending).toBe(0);
    backend.script(PATH.consume, { body: coded(20102) }, { body: coded(30001) });
    await expect(client.billing.consume()).resolves.toMatchObject({ isBlacklisted: true });
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'backend' });
    expect(clock.pending).toBe(0);
  });

  it('after a retried failure: the backoff timer is gone once the retry answered', async () => {
    const { client, backend, clock } = fixture();
    backend.script(PATH.consume, { status: 503, body: coded(1) });
    const result = client.billing.consume();
    await settle();
    expect(clock.pending).toBe(1);
    // nextDue() is a time, advanceBy() a duration.
    clock.advanceBy((clock.nextDue() ?? clock.now()) - clock.now());
    await expect(result).resolves.toMatchObject({ isCredit: false });
    clock.advanceBy(30_000);
    expect(clock.pending).toBe(0);
  });

  it('after dispose() in the middle of a free period', async () => {
    const { client, clock } = fixture();
    await client.billing.consume();
    client.billing.freePeriodRemaining$.subscribe();
    expect(clock.pending).toBeGreaterThan(0);
    client.billing.dispose();
    expect(clock.pending).toBe(0);
  });
});
