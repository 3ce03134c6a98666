import fc from 'fast-check';
import { createClient, type Client } from '../../lib';
import { createBackendCore } from '../../lib/testing/backend/backend-core';
import { inProcessFetch } from '../../lib/testing/http/in-process-fetch';
import { ReferenceState } from '../../lib/testing/backend/reference-state';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import { recordFigures } from '../helpers/figures';
import { VirtualClock } from '../helpers/virtual-clock';
import { Wire, type SentRequest } from '../helpers/wire-log';

const RUNS = Number(process.env['RACE_RUNS'] ?? 200);
const TOKEN = 'race-user';
const MODULE = 'generator_poster';

/** One exchange as the backend handled it. */
type Handled = SentRequest & { readonly code: number };

/**
 * The reference backend over a shared state, where fast-check's scheduler
 * decides when each request reaches it and, separately, when its answer
 * (read in full: the state changed first) reaches the client.
 */
function scheduledFetch(state: ReferenceState, s: fc.Scheduler, client: string, handled: Handled[]) {
  const backend = inProcessFetch(createBackendCore({ state }));
  const wire = new Wire((input, init) => backend(input, { ...init, signal: null }));
  wire.pace = async (request, answer) => {
    const exchange = `${client} ${request.method} ${request.path}`;
    if (answer === undefined) return s.schedule(Promise.resolve(), `${exchange} reaches the backend`);
    handled.push({ ...request, code: (JSON.parse(answer.text) as { code: number }).code });
    return s.schedule(Promise.resolve(), `${exchange}: its answer arrives`);
  };
  return wire.fetch;
}

type Op =
  | { readonly tab: number; readonly kind: 'consume'; readonly id: string | undefined }
  | { readonly tab: number; readonly kind: 'getUsage' | 'refresh' };

const opArbitrary = (tabs: number): fc.Arbitrary<Op> =>
  fc.oneof(
    fc.record({
      tab: fc.nat(tabs - 1),
      kind: fc.constant('consume' as const),
      id: fc.option(fc.constantFrom('x', 'y', 'z'), { nil: undefined }),
    }),
    fc.record({ tab: fc.nat(tabs - 1), kind: fc.constantFrom('getUsage' as const, 'refresh' as const) }),
  );

const scenario = fc.integer({ min: 2, max: 4 }).chain((tabs) =>
  fc.record({
    tabs: fc.constant(tabs),
    free: fc.nat(2),
    balance: fc.nat(8),
    price: fc.integer({ min: 1, max: 3 }),
    ops: fc.array(opArbitrary(tabs), { minLength: 2, maxLength: 10 }),
  }),
);

const figures = { interleavings: 0, consumes: 0, charges: 0, doubleCharges: 0 };
afterAll(() => recordFigures('races', figures));

/** Runs the scheduler until every promise settled; fails instead of hanging if one never can. */
async function settleAll<T>(s: fc.Scheduler, promises: Array<Promise<T>>): Promise<T[]> {
  let done = 0;
  promises.forEach((promise) => void promise.finally(() => (done += 1)).catch(() => undefined));
  for (let idle = 0; done < promises.length;) {
    await new Promise((resolve) => setImmediate(resolve));
    if (s.count() === 0) {
      idle += 1;
      if (idle > 20) throw new Error('some calls never settled');
      continue;
    }
    idle = 0;
    await s.waitOne();
  }
  return Promise.all(promises);
}

function call(client: Client, op: Op): Promise<unknown> {
  if (op.kind === 'getUsage') return client.billing.getUsage();
  if (op.kind === 'refresh') return client.billing.refreshCredits();
  const id = op.kind === 'consume' ? op.id : undefined;
  return client.billing.consume(id === undefined ? {} : { externalId: id });
}

describe('races under fc.scheduler()', () => {
  it(`N concurrent consumes and reads over several clients never charge an id twice (${RUNS} interleavings)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), scenario, async (s, plan) => {
        figures.interleavings += 1;
        const state = new ReferenceState([
          {
            token: TOKEN,
            freeRemaining: plan.free,
            freeTotal: plan.free,
            creditsPerUse: plan.price,
            creditsBalance: plan.balance,
          },
        ]);
        const handled: Handled[] = [];
        const clients = Array.from({ length: plan.tabs }, (_, tab) =>
          createClient({
            baseUrl: 'http://billing.race.test',
            appKey: 'poster',
            headers: { Authorization: `Bearer ${TOKEN}` },
            scheduler: new VirtualClock(),
            fetch: scheduledFetch(state, s, `tab${tab}`, handled),
          }),
        );
        try {
          const pending = plan.ops.map((op) =>
            call(clients[op.tab] as Client, op).then(
              (ok) => ({ op, ok }),
              (error: unknown) => ({ op, error }),
            ),
          );
          const outcomes = await settleAll(s, pending);
          const charges = state.charges();
          figures.consumes += plan.ops.filter((op) => op.kind === 'consume').length;
          figures.charges += charges.length;

          // Every id at most once.
          const chargedIds = charges.map((charge) => charge.externalId);
          figures.doubleCharges += chargedIds.length - new Set(chargedIds).size;
          expect(new Set(chargedIds).size).toBe(chargedIds.length);
          // Charges equal the consumes the backend accepted (code 0, replays included), by id.
          const accepted = new Set(
            handled.filter((h) => h.path === P.consume && h.code === 0).map((h) => h.externalId),
          );
          expect(new Set(chargedIds)).toEqual(accepted);
          // Nothing lost, nothing below zero.
          const user = state.snapshot(TOKEN, MODULE);
          const free = charges.filter((c) => c.kind === 'free').length;
          const credits = charges.filter((c) => c.kind === 'credits').reduce((sum, c) => sum + c.amount, 0);
          expect(user.freeRemaining).toBe(plan.free - free);
          expect(user.creditsBalance).toBe(plan.balance - credits);
          expect(user.creditsBalance).toBeGreaterThanOrEqual(0);
          // A consume with an accepted id resolved; one that failed did not report a charge.
          for (const outcome of outcomes) {
            if (outcome.op.kind !== 'consume' || outcome.op.id === undefined) continue;
            if ('error' in outcome) expect(outcome.error).toMatchObject({ code: 'insufficient_credits' });
          }

          // The caches converge on the backend after the next getUsage().
          const refreshed = await settleAll(
            s,
            clients.map((client) => client.billing.getUsage()),
          );
          for (const usage of refreshed) {
            expect(usage).toMatchObject({ freeRemaining: user.freeRemaining, creditsBalance: user.creditsBalance });
          }
        } finally {
          clients.forEach((client) => client.billing.dispose());
        }
      }),
      { numRuns: RUNS },
    );
  });
});
