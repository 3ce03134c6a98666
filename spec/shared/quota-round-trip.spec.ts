import fc from 'fast-check';
import { createClient, isBillingError, type FetchLike, type QuotaFields } from '../../lib';

// One check of a quota: whatever the wire decoder accepts, the `bootstrap` check accepts too, so a
// page rendered on the server with that user's quota (fractional credits included) hydrates.

interface WireQuota {
  readonly is_enabled: boolean;
  readonly free_remaining: number;
  readonly free_total: number;
  readonly credits_per_use: number;
  readonly balance: number;
}

// A hand-written backend answering the two GETs with `wire`, as JSON text (what the decoder reads).
const answering =
  (wire: WireQuota): FetchLike =>
  (input) => {
    const { balance, ...count } = wire;
    const data = String(input).includes('getBalance') ? { balance } : count;
    const body = JSON.stringify({ code: 0, message: 'ok', data });
    return Promise.resolve(new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } }));
  };

const noFetch: FetchLike = () => Promise.reject(new Error('a bootstrapped client sends nothing'));
const amount = fc.double({ min: 0, noNaN: true, noDefaultInfinity: true });
const wireQuota = fc.record({
  is_enabled: fc.boolean(),
  free_remaining: fc.maxSafeNat(),
  free_total: fc.maxSafeNat(),
  credits_per_use: amount,
  balance: amount,
});
const options = { baseUrl: 'http://billing.test', appKey: 'poster' };

async function serverSnapshot(wire: WireQuota) {
  const server = createClient({ ...options, fetch: answering(wire) });
  try {
    await server.billing.getUsage();
    return JSON.parse(JSON.stringify(server.billing.snapshot())) as unknown;
  } finally {
    server.billing.dispose();
  }
}

function bootstrapped(snapshot: unknown): QuotaFields | null {
  const browser = createClient({ ...options, fetch: noFetch, bootstrap: snapshot as never });
  const usage = browser.billing.getCachedUsage();
  browser.billing.dispose();
  return usage;
}

describe('a quota the decoder accepts', () => {
  it('survives snapshot() → JSON → createClient({ bootstrap }) unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(wireQuota, async (wire) => {
        const usage = bootstrapped(await serverSnapshot(wire));
        expect(usage).toMatchObject({
          isEnabled: wire.is_enabled,
          freeRemaining: wire.free_remaining,
          freeTotal: wire.free_total,
          creditsPerUse: wire.credits_per_use,
          creditsBalance: wire.balance,
        });
      }),
    );
  });

  it('fractional credits (0.5 per use, 12.5 left) included, as the server renders them', async () => {
    const wire = { is_enabled: true, free_remaining: 0, free_total: 3, credits_per_use: 0.5, balance: 12.5 };
    const usage = bootstrapped(await serverSnapshot(wire));
    expect(usage).toMatchObject({ creditsPerUse: 0.5, creditsBalance: 12.5 });
  });
});

describe('a quota the decoder refuses', () => {
  it('is refused by the bootstrap check too, naming the field', () => {
    const usage = { isEnabled: true, freeRemaining: 1, freeTotal: 3, creditsPerUse: 0.5, creditsBalance: 12.5 };
    const snapshot = (patch: Partial<Record<keyof QuotaFields, unknown>>) => ({
      v: 1,
      usage: { ...usage, ...patch },
      fetchedAt: 0,
      freePeriodEndsAt: null,
    });
    const refusals = [
      [{ freeRemaining: 0.5 }, 'usage.freeRemaining'],
      [{ freeTotal: -1 }, 'usage.freeTotal'],
      [{ creditsPerUse: -0.5 }, 'usage.creditsPerUse'],
      [{ creditsBalance: Infinity }, 'usage.creditsBalance'],
      [{ creditsBalance: '12.5' }, 'usage.creditsBalance'],
      [{ isEnabled: 1 }, 'usage.isEnabled'],
    ] as const;
    for (const [patch, field] of refusals) {
      let error: unknown;
      try {
        createClient({ ...options, fetch: noFetch, bootstrap: snapshot(patch) as never }).billing.dispose();
      } catch (thrown) {
        error = thrown;
      }
      expect(isBillingError(error, 'invalid_argument')).toBe(true);
      expect((error as Error).message).toContain(`bootstrap.${field} `);
    }
  });
});
