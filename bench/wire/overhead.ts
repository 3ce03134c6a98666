import { v4 as uuidv4 } from 'uuid';
import { createClient } from '../../lib/client/create-client';
import { defaultFetch } from '../../lib/platform/default-fetch';
import { startReferenceBackend } from '../../lib/testing';
import type { FetchLike } from '../../lib/shared/types';
import { chargedClock } from '../harness/charged-clock';
import { sampleInTurn, timed } from '../harness/in-turn';
import { spread, type Spread } from '../harness/stats';

/** One side-by-side comparison: the library against raw fetch, in milliseconds per call. */
export interface Comparison {
  readonly library: Spread;
  readonly raw: Spread;
  /** library median / raw median; the goal is <= 1.10. */
  readonly ratio: number;
}

export interface WireFigures {
  readonly iterations: number;
  readonly consume: Comparison;
  readonly getUsage: Comparison;
  /** getUsage() against the two GETs one after the other: the parallelism (about 0.5). */
  readonly getUsageVsSequential: Comparison;
  /** The raw POST against itself, alternated the same way: the noise floor of every ratio here (about 1.00). */
  readonly control: Comparison;
}

const TOKEN = 'wire';
const HEADERS = { Authorization: `Bearer ${TOKEN}` };
// The fetch the library sends with when given none (the runtime's own): the overhead measured is the
// library's, not the difference between two HTTP clients.
const fetchFn: FetchLike = defaultFetch;

// What a careful hand-written call does, with the library's headers: send,
// check the status, read the body, parse it and check the envelope's code.
async function raw(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetchFn(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const envelope = JSON.parse(text) as { code?: unknown; data?: unknown };
  if (envelope.code !== 0) throw new Error(`code ${String(envelope.code)}`);
  return envelope.data;
}

/** A consume's POST sent by hand (see `raw`), with a new external id each time. */
export const rawConsume = (baseUrl: string, headers: Record<string, string>) => (): Promise<unknown> =>
  raw(`${baseUrl}/ai/v5/service/free_trial`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ module: 'generator_bench', external_id: uuidv4() }),
  });

function compare(library: number[], baseline: number[]): Comparison {
  const a = spread(library);
  const b = spread(baseline);
  return { library: a, raw: b, ratio: a.median / b.median };
}

/**
 * The library and raw fetch (the same runtime fetch the library uses by default)
 * send the same requests to the reference backend on loopback, in turn, in a
 * random order each iteration, so drift and warm-up hit every side alike.
 */
export async function measureWire({ quick = false } = {}): Promise<WireFigures> {
  const iterations = quick ? 40 : 400;
  const warmup = quick ? 10 : 50;
  const backend = await startReferenceBackend({
    users: [
      { token: TOKEN, freeRemaining: 1_000_000_000, freeTotal: 1_000_000_000, creditsPerUse: 1, creditsBalance: 0 },
    ],
  });
  // Every consume a charged POST: the clock jumps past the free period before each.
  const { scheduler, skipFreePeriod } = chargedClock();
  const client = createClient({ baseUrl: backend.url, appKey: 'bench', headers: HEADERS, scheduler });
  const get = { method: 'GET', headers: { accept: 'application/json', ...HEADERS } };
  const countUrl = `${backend.url}/ai/v5/service/free_trial/count?module=generator_bench`;
  const balanceUrl = `${backend.url}/ai/v1/credit/getBalance`;
  const rawPost = rawConsume(backend.url, HEADERS);
  const sides: Array<() => Promise<unknown>> = [
    () => (skipFreePeriod(), client.billing.consume()),
    rawPost,
    () => client.billing.getUsage(),
    () => Promise.all([raw(countUrl, get), raw(balanceUrl, get)]),
    async () => {
      await raw(countUrl, get);
      await raw(balanceUrl, get);
    },
    rawPost,
  ];
  let samples: number[][];
  try {
    samples = await sampleInTurn(sides, { warmup, iterations });
  } finally {
    client.billing.dispose();
    await backend.close();
  }
  const [consumeA = [], consumeB = [], usageA = [], usageB = [], sequential = [], rawAgain = []] = samples;
  return {
    iterations,
    consume: compare(consumeA, consumeB),
    getUsage: compare(usageA, usageB),
    getUsageVsSequential: compare(usageA, sequential),
    control: compare(rawAgain, consumeB),
  };
}

/** getUsage() against the two GETs in sequence when each answer takes `latencyMs`, as over a real network. */
export interface ParallelismFigures {
  readonly latencyMs: number;
  readonly getUsage: Comparison;
}

/**
 * On loopback the backend shares this process's CPU, so two "parallel" GETs
 * are served one after the other and parallelism barely shows. A fixed
 * server-side delay per request (the reference backend's `delay` fault) stands
 * in for network latency, which is what parallel requests save.
 */
export async function measureParallelism({ quick = false } = {}): Promise<ParallelismFigures> {
  const iterations = quick ? 4 : 20;
  const latencyMs = 20;
  const backend = await startReferenceBackend({
    users: [{ token: TOKEN, freeRemaining: 1, freeTotal: 1, creditsPerUse: 1, creditsBalance: 0 }],
  });
  const client = createClient({ baseUrl: backend.url, appKey: 'bench', headers: HEADERS });
  const get = { method: 'GET', headers: { accept: 'application/json', ...HEADERS } };
  const countPath = '/ai/v5/service/free_trial/count';
  const balancePath = '/ai/v1/credit/getBalance';
  const slow = () => {
    backend.failNext(countPath, 1, { kind: 'delay', ms: latencyMs });
    backend.failNext(balancePath, 1, { kind: 'delay', ms: latencyMs });
  };
  const parallel: number[] = [];
  const sequential: number[] = [];
  try {
    for (let i = 0; i < iterations; i++) {
      slow();
      parallel.push(await timed(() => client.billing.getUsage()));
      slow();
      sequential.push(
        await timed(async () => {
          await raw(`${backend.url}${countPath}?module=generator_bench`, get);
          await raw(`${backend.url}${balancePath}`, get);
        }),
      );
    }
  } finally {
    client.billing.dispose();
    await backend.close();
  }
  return { latencyMs, getUsage: compare(parallel, sequential) };
}
