import fc from 'fast-check';
import { createClient } from '../../lib';
import { subtractAmount } from '../../lib/shared/subtract-amount';
import { createReferenceBackend, createTestClock, REFERENCE_PATHS, type TestClock } from '../../lib/testing';

// One rule for subtracting credit amounts: the float difference rounded to the larger count of decimals
// of the two operands, so the balance a user sees is the one their bank statement would show.

describe('subtractAmount', () => {
  it.each([
    [0.3, 0.1, 0.2],
    [12.5, 0.5, 12],
    [1, 0.9, 0.1],
    [10, 0.25, 9.75],
    [40, 10, 30],
    [0.1, 0.3, -0.2],
    [0.1, -0.2, 0.3], // adding, as a top-up does
    [5, 0, 5],
    [1e-7, 0, 1e-7],
    [3e-7, 1e-7, 2e-7],
    [2.5e21, 0.5, 2.5e21],
  ])('%p − %p is %p', (from, amount, expected) => {
    expect(subtractAmount(from, amount)).toBe(expected);
  });

  it('subtracted again and again, as the ledger lowers a balance by each charge: 0.3 − 0.1 × 3 is 0', () => {
    expect([0.1, 0.1, 0.1].reduce(subtractAmount, 0.3)).toBe(0);
    expect([0.1, 0.1, 0.1].reduce((a, b) => a - b, 0.3)).not.toBe(0); // the float noise it takes off
  });

  it('leaves an amount past 20 decimals (no backend sends one) to the float difference', () => {
    expect(subtractAmount(5e-324, 0)).toBe(5e-324);
    expect(subtractAmount(1.5e-22, 0.5e-22)).toBe(1.5e-22 - 0.5e-22);
  });

  it('is the exact decimal difference for amounts with up to 6 decimals, once or subtracted again and again', () => {
    // An amount as a backend writes it, up to a million credits: an integer of units and a count of
    // decimals (1234, 2) is 12.34. Past ~15 significant digits no float holds the exact difference.
    const decimal = fc
      .integer({ min: 0, max: 6 })
      .chain((decimals) =>
        fc.record({ units: fc.bigInt({ min: 0n, max: 10n ** BigInt(6 + decimals) }), decimals: fc.constant(decimals) }),
      );
    const value = ({ units, decimals }: { units: bigint; decimals: number }) => Number(`${units}e-${decimals}`);
    fc.assert(
      fc.property(decimal, decimal, fc.integer({ min: 1, max: 20 }), (from, amount, times) => {
        const decimals = Math.max(from.decimals, amount.decimals);
        const scaled = (d: { units: bigint; decimals: number }) => d.units * 10n ** BigInt(decimals - d.decimals);
        const exact = Number(`${scaled(from) - scaled(amount) * BigInt(times)}e-${decimals}`);
        let result = value(from);
        for (let n = 0; n < times; n++) result = subtractAmount(result, value(amount));
        expect(result + 0).toBe(exact + 0); // -0 and 0 alike
      }),
    );
  });
});

describe('amounts a user sees', () => {
  const user = { token: 'alice', freeRemaining: 0, freeTotal: 3, creditsPerUse: 0.1, creditsBalance: 0.3 };
  const clientOf = (backend: ReturnType<typeof createReferenceBackend>, scheduler?: TestClock) =>
    createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      headers: { Authorization: 'Bearer alice' },
      fetch: backend.fetch,
      retries: 0,
      scheduler,
    });

  it('preview() of 0.3 − 0.1 is 0.2, and the charge leaves 0.2 on the backend and in the cache', async () => {
    const backend = createReferenceBackend({ users: [user] });
    const { billing } = clientOf(backend);
    await billing.getUsage();
    expect(billing.preview()).toMatchObject({ reason: 'credits', cost: 0.1, balanceAfter: 0.2 });
    await billing.consume();
    expect(backend.getUser('alice').creditsBalance).toBe(0.2);
    expect(billing.getCachedUsage()?.creditsBalance).toBe(0.2);
    billing.dispose();
  });

  it('failed refreshes after two charges lower the cached 0.3 by 0.1 each: 0.2, then 0.1 (the ledger)', async () => {
    const backend = createReferenceBackend({ users: [user] });
    const clock = createTestClock();
    const { billing } = clientOf(backend, clock);
    await billing.getUsage();
    backend.failNext(REFERENCE_PATHS.balance, 2, { kind: 'status', status: 400 });
    await billing.consume();
    expect(billing.getCachedUsage()?.creditsBalance).toBe(0.2);
    clock.advance(30_000); // past the free period: the next consume is charged
    await billing.consume();
    expect(billing.getCachedUsage()?.creditsBalance).toBe(0.1);
    expect(backend.getUser('alice').creditsBalance).toBe(0.1);
    billing.dispose();
  });
});

describe('the meter’s announcement of a fractional charge', () => {
  it('says 0.1 credits charged, not 0.09999999999999998', async () => {
    const { announcement } = await import('../../lib/element/meter');
    const usage = { isEnabled: true, freeRemaining: 0, freeTotal: 3, creditsPerUse: 0.1, inFreePeriod: false };
    const said = announcement(
      { ...usage, creditsBalance: 0.3, freePeriodRemaining: 0 },
      { ...usage, creditsBalance: 0.2, freePeriodRemaining: 0 },
      'export',
    );
    expect(said).toBe('0.1 credits charged, 0.2 left.');
  });
});
