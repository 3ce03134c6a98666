import { REFERENCE_PATHS as P } from '../../lib/testing';
import { outcomeOf, TOKEN, type ActContext, type Outcome, type Scenario } from './harness';

const PRIMED = { freeRemaining: 2, creditsBalance: 10, inFreePeriod: false };

// The failed getUsage leaves the primed cache; the next call refetches what the backend now holds.
async function failsThenRefetches({ h, backend }: ActContext): Promise<Outcome> {
  backend.setUser(TOKEN, { creditsBalance: 50, freeRemaining: 1 });
  const first = await outcomeOf(h.run(h.client.billing.getUsage()));
  expect(h.client.billing.getCachedUsage()).toMatchObject(PRIMED);
  await expect(h.run(h.client.billing.getUsage())).resolves.toMatchObject({ creditsBalance: 50, freeRemaining: 1 });
  return first;
}

export const usageScenarios: readonly Scenario[] = [
  {
    name: 'getUsage: the free-count GET fails',
    id: 'usage-count-fails',
    behaviour: 'rejects; the balance answer is not applied alone; the failure is not cached: the next call refetches',
    faults: () => [[P.freeTrialCount, 3, { kind: 'status', status: 503 }]],
    act: failsThenRefetches,
    expect: {
      outcome: { rejects: { code: 'http', status: 503 } },
      requests: { count: 4, balance: 2, consume: 0 },
      cached: { creditsBalance: 50, freeRemaining: 1 },
    },
  },
  {
    name: 'getUsage: the balance GET fails',
    id: 'usage-balance-fails',
    behaviour: 'rejects; the free-count answer is not applied alone; the next call refetches',
    faults: () => [[P.balance, 1, { kind: 'malformed', body: '<html>maintenance</html>', contentType: 'text/html' }]],
    act: failsThenRefetches,
    expect: {
      outcome: { rejects: { code: 'decode' } },
      requests: { count: 2, balance: 2, consume: 0 },
      cached: { creditsBalance: 50, freeRemaining: 1 },
    },
  },
  {
    name: 'getUsage: out-of-order answers, the newer wins',
    id: 'usage-out-of-order',
    behaviour:
      'an older balance answer arriving after a newer refresh is dropped; getUsage resolves with the newer value',
    act: async ({ h, backend }) => {
      const held = h.wire.hold(P.balance);
      const older = h.client.billing.getUsage();
      await held.arrived;
      backend.setUser(TOKEN, { creditsBalance: 50 });
      await h.client.billing.refreshCredits();
      held.release();
      return outcomeOf(older);
    },
    expect: {
      outcome: { resolves: { ...PRIMED, creditsBalance: 50 } },
      requests: { count: 1, balance: 2, consume: 0 },
      cached: { ...PRIMED, creditsBalance: 50 },
    },
  },
  {
    name: 'getUsage: one caller aborts its AbortSignal',
    id: 'usage-abort',
    behaviour: 'that caller rejects aborted; the shared request goes on for the other caller, whose answer is applied',
    act: async ({ h, backend }) => {
      backend.setUser(TOKEN, { freeRemaining: 1 });
      const held = h.wire.hold(P.freeTrialCount);
      const controller = new AbortController();
      const leaving = h.client.billing.getUsage({ signal: controller.signal });
      const staying = h.client.billing.getUsage();
      await held.arrived;
      controller.abort();
      const outcome = await outcomeOf(leaving);
      held.release();
      await expect(staying).resolves.toMatchObject({ freeRemaining: 1 });
      return outcome;
    },
    expect: {
      outcome: { rejects: { code: 'aborted' } },
      requests: { count: 1, balance: 1, consume: 0 },
      cached: { freeRemaining: 1, creditsBalance: 10 },
    },
  },
  {
    name: 'consume: AbortSignal aborted before the request is sent',
    id: 'op-abort-before',
    behaviour: 'rejects aborted with its externalId; nothing is sent',
    act: async ({ h, id }) => {
      const controller = new AbortController();
      controller.abort();
      return outcomeOf(h.client.billing.consume({ externalId: id, signal: controller.signal }));
    },
    expect: {
      outcome: { rejects: { code: 'aborted', externalId: 'op-abort-before' } },
      requests: { count: 0, balance: 0, consume: 0 },
      cached: PRIMED,
    },
  },
  {
    name: 'consume: AbortSignal aborted after the POST was sent',
    id: 'op-abort-after',
    behaviour:
      'rejects aborted with its externalId; the backend may have charged; no free period, cache unchanged; a retry with the same externalId replays, no second charge',
    act: async ({ h, id, backend }) => {
      const held = h.wire.hold(P.consume);
      const controller = new AbortController();
      const aborted = h.client.billing.consume({ externalId: id, signal: controller.signal });
      await held.arrived;
      controller.abort();
      const outcome = await outcomeOf(aborted);
      expect(backend.charges()).toHaveLength(1);
      expect(h.client.billing.getCachedUsage()).toMatchObject(PRIMED);
      expect(h.client.billing.check().reason).toBe('free_count');
      await expect(h.client.billing.consume({ externalId: id })).resolves.toEqual({
        freeRemaining: 1,
        isCredit: false,
        isBlacklisted: false,
      });
      return outcome;
    },
    expect: {
      outcome: { rejects: { code: 'aborted', externalId: 'op-abort-after' } },
      requests: { count: 0, balance: 0, consume: 2 },
      externalIds: ['op-abort-after', 'op-abort-after'],
      charges: ['free'],
      cached: { freeRemaining: 1, creditsBalance: 10, inFreePeriod: true },
    },
  },
  {
    name: 'consume: balance refresh fails after a credit charge',
    id: 'op-refresh-fails',
    behaviour:
      'resolves isCredit; cached balance lowered by creditsPerUse until the next successful refresh, which replaces it',
    user: { freeRemaining: 0, creditsBalance: 10 },
    faults: () => [[P.balance, 3, { kind: 'status', status: 500 }]],
    act: async ({ h, id, backend }) => {
      const outcome = await outcomeOf(h.run(h.client.billing.consume({ externalId: id })));
      expect(h.client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 7 });
      backend.setUser(TOKEN, { creditsBalance: 20 });
      await h.run(h.client.billing.refreshCredits());
      return outcome;
    },
    expect: {
      outcome: { resolves: { freeRemaining: 0, isCredit: true, isBlacklisted: false } },
      requests: { count: 0, balance: 4, consume: 1 },
      externalIds: ['op-refresh-fails'],
      charges: ['credits'],
      cached: { freeRemaining: 0, creditsBalance: 20, inFreePeriod: true },
    },
  },
];
