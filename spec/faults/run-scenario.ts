import { inspect } from 'node:util';
import { BillingError } from '../../lib';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import type { ContractBackend } from '../testing/http-helpers';
import { DEFAULT_USER, makeHarness, outcomeOf, TOKEN, type ActContext, type Outcome, type Scenario } from './harness';

const consumeOnce = ({ h, id }: ActContext): Promise<Outcome> =>
  outcomeOf(h.run(h.client.billing.consume({ externalId: id })));

/** Every string a user could see of an outcome: values, and errors in every form. */
export function renderings(outcome: Outcome): string[] {
  if ('ok' in outcome) return [JSON.stringify(outcome.ok) ?? 'undefined'];
  const error = outcome.error;
  const out = [String(error), JSON.stringify(error), inspect(error, { depth: 5, showHidden: true })];
  if (error instanceof Error) out.push(error.message, error.stack ?? '');
  return out;
}

function assertOutcome(outcome: Outcome, expected: Scenario['expect']['outcome']): void {
  if ('resolves' in expected) {
    expect(outcome).toEqual({ ok: expect.anything() });
    expect((outcome as { ok: unknown }).ok).toMatchObject(expected.resolves as object);
    return;
  }
  expect(outcome).toEqual({ error: expect.any(BillingError) });
  expect((outcome as { error: unknown }).error).toMatchObject(expected.rejects);
}

/**
 * Runs one row of the matrix on a fresh backend user and asserts the five
 * things the issue asks for; returns every rendering the client produced, for
 * the canary search.
 */
export async function runScenario(backend: ContractBackend, scenario: Scenario): Promise<string[]> {
  backend.addUser({ token: TOKEN, ...DEFAULT_USER, ...scenario.user });
  const h = makeHarness(backend.url, scenario.token ?? TOKEN, scenario.options, backend.clientFetch);
  try {
    if (scenario.prime !== false) await h.run(h.client.billing.getUsage());
    for (const [path, n, fault] of scenario.faults?.() ?? []) {
      backend.failNext(path, n, fault);
      for (let i = 0; fault.kind === 'stall' && i < n; i++) h.wire.expectStall(path);
    }
    const primed = h.wire.sent.length;
    const start = h.clock.now();
    const context: ActContext = { h, backend, token: scenario.token ?? TOKEN, id: scenario.id };
    const outcome = await (scenario.act ?? consumeOnce)(context);
    const elapsed = h.clock.now() - start;
    const sent = h.wire.sent.slice(primed);
    const expected = scenario.expect;

    assertOutcome(outcome, expected.outcome);
    expect({
      count: sent.filter((r) => r.path === P.freeTrialCount).length,
      balance: sent.filter((r) => r.path === P.balance).length,
      consume: sent.filter((r) => r.path === P.consume).length,
    }).toEqual(expected.requests);
    expect(sent.filter((r) => r.path === P.consume).map((r) => r.externalId)).toEqual(expected.externalIds ?? []);
    const charges = backend.charges();
    expect(charges.map((c) => c.kind)).toEqual(expected.charges ?? []);
    expect(charges.every((c) => c.externalId === scenario.id)).toBe(true);
    if (expected.cached === null) expect(h.client.billing.getCachedUsage()).toBeNull();
    else expect(h.client.billing.getCachedUsage()).toMatchObject(expected.cached);
    if (expected.elapsedMs !== undefined) {
      expect(elapsed).toBeGreaterThanOrEqual(expected.elapsedMs[0]);
      expect(elapsed).toBeLessThanOrEqual(expected.elapsedMs[1]);
    }
    return [...h.seen, ...renderings(outcome)];
  } finally {
    h.client.billing.dispose();
  }
}
