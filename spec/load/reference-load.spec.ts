import { performance } from 'node:perf_hooks';
import { createClient, type Client } from '../../lib';
import { startReferenceBackend, type ReferenceBackend, type ReferenceUser } from '../../lib/testing';
import { recordFigures } from '../helpers/figures';
import { VirtualClock } from '../helpers/virtual-clock';

const CLIENTS = 200;
const CONSUMES = 20;
const USERS = 20;
// Counts only: how long the load takes depends on the machine (14 s alone, over a minute on a
// busy one), so the time is a figure, never asserted. The test timeout only stops a hang.
const HANG_GUARD_MS = 15 * 60_000;
const user = (u: number): ReferenceUser => ({
  token: `load-${u}`,
  freeRemaining: 20,
  freeTotal: 20,
  creditsPerUse: 1,
  // Ten clients x 20 consumes = 200 asks per user: 20 free, 150 credits, then refusals.
  creditsBalance: 150,
});

let backend: ReferenceBackend;
beforeAll(async () => {
  backend = await startReferenceBackend({ users: Array.from({ length: USERS }, (_, u) => user(u)) });
});
afterAll(() => backend.close());

interface Tally {
  ok: number;
  insufficient: number;
  other: string[];
}

// One client's 20 consumes, one after another; the virtual clock skips each free period.
async function session(index: number, tally: Map<string, Tally>): Promise<void> {
  const token = `load-${index % USERS}`;
  const clock = new VirtualClock();
  const client: Client = createClient({
    baseUrl: backend.url,
    appKey: 'poster',
    headers: { Authorization: `Bearer ${token}` },
    scheduler: clock,
    retries: 0,
  });
  const mine = tally.get(token) as Tally;
  try {
    for (let i = 0; i < CONSUMES; i++) {
      try {
        await client.billing.consume({ externalId: `c${index}-op${i}` });
        mine.ok += 1;
      } catch (error) {
        if ((error as { code?: string }).code === 'insufficient_credits') mine.insufficient += 1;
        else mine.other.push(String(error));
      }
      clock.advanceBy(30_000);
    }
  } finally {
    client.billing.dispose();
  }
}

describe('load on one reference backend over loopback', () => {
  it(
    `${CLIENTS} clients x ${CONSUMES} consumes at once: charges equal successes, no balance below zero, no 5xx`,
    async () => {
      const tally = new Map<string, Tally>(
        Array.from({ length: USERS }, (_, u) => [`load-${u}`, { ok: 0, insufficient: 0, other: [] }]),
      );
      const started = performance.now();
      await Promise.all(Array.from({ length: CLIENTS }, (_, index) => session(index, tally)));
      const elapsedMs = Math.round(performance.now() - started);

      const charges = backend.charges();
      const requests = backend.requests();
      for (const [token, counts] of tally) {
        expect(counts.other).toEqual([]);
        expect(counts.ok + counts.insufficient).toBe((CLIENTS / USERS) * CONSUMES);
        const mine = charges.filter((charge) => charge.token === token);
        // Every success is exactly one charge, and no charge lacks a success.
        expect(mine).toHaveLength(counts.ok);
        expect(new Set(mine.map((charge) => charge.externalId)).size).toBe(mine.length);
        const state = backend.getUser(token, 'generator_poster');
        const free = mine.filter((charge) => charge.kind === 'free').length;
        const credits = mine
          .filter((charge) => charge.kind === 'credits')
          .reduce((sum, charge) => sum + charge.amount, 0);
        // No lost update: the state is the start minus exactly what was charged.
        expect(state.freeRemaining).toBe(20 - free);
        expect(state.creditsBalance).toBe(150 - credits);
        expect(state.creditsBalance).toBeGreaterThanOrEqual(0);
        expect(counts.ok).toBe(170);
      }
      expect(requests.filter((request) => (request.status ?? 0) >= 500)).toEqual([]);
      expect(requests.every((request) => request.status === 200)).toBe(true);
      recordFigures('load', {
        clients: CLIENTS,
        consumes: CLIENTS * CONSUMES,
        charges: charges.length,
        requests: requests.length,
        http5xx: requests.filter((request) => (request.status ?? 0) >= 500).length,
        elapsedMs,
      });
    },
    HANG_GUARD_MS,
  );
});
