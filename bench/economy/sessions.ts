import { Subject, lastValueFrom, take, toArray } from 'rxjs';
import { createClient } from '../../lib/client/create-client';
import { consumeWith } from '../../lib/index';
import { startReferenceBackend } from '../../lib/testing';
import type { Client } from '../../lib/store/billing-module';
import { VirtualClock } from '../../spec/helpers/virtual-clock';
import { minimumRequests, spreadTimes, type QuotaModel, type Script } from './minimum';

/** One row of the request-economy table. */
export interface EconomyRow {
  readonly session: string;
  readonly requests: number;
  readonly minimum: number;
  readonly gets: number;
  readonly posts: number;
}

interface Session {
  readonly name: string;
  readonly script: Script;
  /** Drives the client through the script; the clock is virtual, the I/O real. */
  readonly run: (client: Client, clock: VirtualClock) => Promise<void>;
}

const FREE: QuotaModel = { freeRemaining: 1_000, creditsPerUse: 2, creditsBalance: 0 };
const CREDITS: QuotaModel = { freeRemaining: 0, creditsPerUse: 2, creditsBalance: 1_000 };
// Free uses first, then credits, then insufficient: every branch of the priority.
const MIXED: QuotaModel = { freeRemaining: 5, creditsPerUse: 3, creditsBalance: 30 };

const TEN_MINUTES = 10 * 60_000;

async function consumesAt(client: Client, clock: VirtualClock, times: readonly number[]): Promise<void> {
  const start = clock.now();
  for (const at of times) {
    clock.advanceBy(start + at - clock.now());
    // An insufficient consume rejects; the session goes on like a user would.
    await client.billing.consume().catch(() => undefined);
  }
}

function spreadSession(name: string, quota: QuotaModel): Session {
  const times = spreadTimes(100, TEN_MINUTES);
  return {
    name,
    script: { getUsageCalls: 1, consumesAt: times, quota },
    run: async (client, clock) => {
      await client.billing.getUsage();
      await consumesAt(client, clock, times);
    },
  };
}

/** The scripted sessions of the benchmark, each on a fresh user. */
export const SESSIONS: readonly Session[] = [
  {
    name: 'cold start: getUsage, check, consume',
    script: { getUsageCalls: 1, consumesAt: [0], quota: FREE },
    run: async (client) => {
      await client.billing.getUsage();
      client.billing.check();
      await client.billing.consume();
    },
  },
  {
    name: '10 concurrent getUsage()',
    script: { getUsageCalls: 10, consumesAt: [], quota: FREE },
    run: async (client) => {
      await Promise.all(Array.from({ length: 10 }, () => client.billing.getUsage()));
    },
  },
  {
    name: 'burst of 20 clicks (consumeWith)',
    script: { getUsageCalls: 0, consumesAt: Array.from({ length: 20 }, () => 0), quota: FREE },
    run: async (client) => {
      const clicks = new Subject<void>();
      const outcomes = lastValueFrom(clicks.pipe(consumeWith(client.billing), take(20), toArray()));
      for (let i = 0; i < 20; i++) clicks.next();
      await outcomes;
    },
  },
  spreadSession('100 consumes over 10 min: free quota', FREE),
  spreadSession('100 consumes over 10 min: credits', CREDITS),
  spreadSession('100 consumes over 10 min: mixed', MIXED),
];

/** Runs every session against a fresh reference backend and counts the requests it received. */
export async function measureEconomy(): Promise<EconomyRow[]> {
  const rows: EconomyRow[] = [];
  for (const session of SESSIONS) {
    const { quota } = session.script;
    const backend = await startReferenceBackend({
      users: [{ token: 'bench', freeTotal: quota.freeRemaining, ...quota }],
    });
    const clock = new VirtualClock();
    const client = createClient({
      baseUrl: backend.url,
      appKey: 'bench',
      headers: { Authorization: 'Bearer bench' },
      scheduler: clock,
    });
    try {
      await session.run(client, clock);
    } finally {
      client.billing.dispose();
      await backend.close();
    }
    const requests = backend.requests();
    rows.push({
      session: session.name,
      requests: requests.length,
      minimum: minimumRequests(session.script),
      gets: requests.filter((request) => request.method === 'GET').length,
      posts: requests.filter((request) => request.method === 'POST').length,
    });
  }
  return rows;
}
