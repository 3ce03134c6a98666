import { firstValueFrom } from 'rxjs';
import type { BillingSnapshot, ClientOptions } from '../../lib';
import { cleanup, fixture } from '../helpers/client-fixture';

// Issue 19 item 1: billing.snapshot() and the `bootstrap` option, through the public API.
// The fixture's scheduler has no wallNow of its own, so the wall clock is the virtual one.

afterEach(cleanup);

const CANARY = 'canary-5d1e9b7c';
const USAGE = { isEnabled: true, freeRemaining: 2, freeTotal: 3, creditsPerUse: 10, creditsBalance: 40 };

function snapshotAt(now: number, patch: Partial<BillingSnapshot> = {}): BillingSnapshot {
  return { v: 1, usage: { ...USAGE }, fetchedAt: now, freePeriodEndsAt: null, ...patch };
}

describe('billing.snapshot()', () => {
  it('is null before the first answer, then the usage and free period on the wall clock, as plain JSON', async () => {
    const { client, clock } = fixture(
      { freeRemaining: 2, freeTotal: 3, creditsPerUse: 10, balance: 40 },
      { headers: { Authorization: `Bearer ${CANARY}` } },
    );
    expect(client.billing.snapshot()).toBeNull();
    await client.billing.getUsage();
    const fetchedAt = clock.now();
    expect(client.billing.snapshot()).toEqual(snapshotAt(fetchedAt));
    clock.advanceBy(1_000);
    await client.billing.consume();
    const snapshot = client.billing.snapshot() as BillingSnapshot;
    expect(snapshot).toEqual({
      v: 1,
      usage: { ...USAGE, freeRemaining: 1 },
      fetchedAt,
      freePeriodEndsAt: clock.now() + 30_000,
    });
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(JSON.stringify(snapshot)).not.toContain(CANARY);
  });

  it('after dispose() gives the last one', async () => {
    const { client } = fixture();
    await client.billing.getUsage();
    const last = client.billing.snapshot();
    client.billing.dispose();
    expect(client.billing.snapshot()).toEqual(last);
  });
});

describe('the bootstrap option', () => {
  it("keeps the quota fields of its usage and nothing else: no key of the snapshot's own reaches the usage", () => {
    const usage = { ...USAGE, note: 'from the server render' };
    const { client } = fixture({}, { bootstrap: snapshotAt(1_000_000, { usage }) });
    expect(client.billing.getCachedUsage()).toStrictEqual({ ...USAGE, inFreePeriod: false, freePeriodRemaining: 0 });
    expect(client.billing.snapshot()?.usage).toStrictEqual(USAGE);
  });

  it('a valid one: nothing sent, the usage at once, replayed, loaded, and check() decides from it', async () => {
    const start = 1_000_000; // the virtual clock's start
    const { client, backend } = fixture({}, { bootstrap: snapshotAt(start - 5_000) });
    expect(client.billing.getCachedUsage()).toEqual({ ...USAGE, inFreePeriod: false, freePeriodRemaining: 0 });
    expect(await firstValueFrom(client.billing.usage$)).toMatchObject(USAGE);
    expect(client.billing.getStatus()).toMatchObject({ loaded: true, loading: false, fetchedAt: start - 5_000 });
    expect(client.billing.check()).toEqual({ canProceed: true, reason: 'free_count' });
    expect(client.billing.preview()).toMatchObject({ cost: 0, freeAfter: 1 });
    expect(backend.requests).toEqual([]);
  });

  it('a survived round trip through JSON is a valid bootstrap', async () => {
    const server = fixture({ freeRemaining: 0, balance: 5, creditsPerUse: 10 });
    await server.client.billing.getUsage();
    const bootstrap = JSON.parse(JSON.stringify(server.client.billing.snapshot())) as BillingSnapshot;
    const { client } = fixture({}, { bootstrap });
    expect(client.billing.getCachedUsage()).toEqual(server.client.billing.getCachedUsage());
    expect(client.billing.check().reason).toBe('insufficient');
  });

  it('its free period runs from freePeriodEndsAt by the wall clock, at most 30 s, never beyond fetchedAt + 30 s', () => {
    const now = 1_000_000;
    const within = fixture({}, { bootstrap: snapshotAt(now - 4_000, { freePeriodEndsAt: now + 26_000 }) });
    expect(within.client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: true, freePeriodRemaining: 26 });
    expect(within.client.billing.check().reason).toBe('free_period');
    const late = fixture({}, { bootstrap: snapshotAt(now - 20_000, { freePeriodEndsAt: now + 30_000 }) });
    expect(late.client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: true, freePeriodRemaining: 10 });
    const far = fixture({}, { bootstrap: snapshotAt(now + 60_000, { freePeriodEndsAt: now + 90_000 }) });
    expect(far.client.billing.getCachedUsage()?.freePeriodRemaining).toBeLessThanOrEqual(30);
    const over = fixture({}, { bootstrap: snapshotAt(now - 40_000, { freePeriodEndsAt: now - 10_000 }) });
    expect(over.client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: false, freePeriodRemaining: 0 });
  });

  it('any later answer replaces it', async () => {
    const { client } = fixture({ freeRemaining: 0, balance: 7 }, { bootstrap: snapshotAt(1_000_000) });
    await client.billing.getUsage();
    expect(client.billing.getCachedUsage()).toMatchObject({ freeRemaining: 0, creditsBalance: 7 });
  });

  it.each<[string, unknown, string]>([
    ['a wrong version', { ...snapshotAt(0), v: 2 }, 'bootstrap.v'],
    ['no usage', { ...snapshotAt(0), usage: null }, 'bootstrap.usage'],
    ['a negative count', snapshotAt(0, { usage: { ...USAGE, freeRemaining: -1 } }), 'bootstrap.usage.freeRemaining'],
    ['a string flag', snapshotAt(0, { usage: { ...USAGE, isEnabled: 'yes' as unknown as boolean } }), 'isEnabled'],
    ['no fetchedAt', { ...snapshotAt(0), fetchedAt: undefined }, 'bootstrap.fetchedAt'],
    ['a bad end', snapshotAt(0, { freePeriodEndsAt: Number.NaN }), 'bootstrap.freePeriodEndsAt'],
    ['a string', 'snapshot', 'bootstrap'],
  ])('an invalid one (%s) makes createClient throw invalid_argument naming the field', (_, bootstrap, field) => {
    const options = { bootstrap } as unknown as Partial<ClientOptions>;
    expect(() => fixture({}, options)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(() => fixture({}, options)).toThrow(field);
  });

  it('null behaves as no bootstrap', () => {
    const { client, backend } = fixture({}, { bootstrap: null });
    expect(client.billing.getCachedUsage()).toBeNull();
    expect(client.billing.getStatus().loaded).toBe(false);
    expect(backend.requests).toEqual([]);
  });
});
