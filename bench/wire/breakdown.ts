import { v4 as uuidv4 } from 'uuid';
import { createClient } from '../../lib/client/create-client';
import { defaultFetch } from '../../lib/platform/default-fetch';
import { startReferenceBackend } from '../../lib/testing';
import { createBillingApi } from '../../lib/transport/billing-api';
import { exchange } from '../../lib/transport/http';
import { defaultRetryPolicy } from '../../lib/transport/retry-policy';
import type { FetchLike } from '../../lib/shared/types';
import { chargedClock } from '../harness/charged-clock';
import { sampleInTurn } from '../harness/in-turn';
import { median } from '../harness/stats';

/** Median milliseconds of one POST at each layer of the stack, outermost last. */
export interface Layer {
  readonly layer: string;
  readonly medianMs: number;
}

const TOKEN = 'layers';
const HEADERS = { Authorization: `Bearer ${TOKEN}` };
// The fetch the library uses by default, as in overhead.ts.
const fetchFn: FetchLike = defaultFetch;

/**
 * Where the time of a consume goes: the same POST sent through each layer,
 * from raw fetch to the public `consume()`, alternated like the A/B runs.
 */
export async function measureLayers({ quick = false } = {}): Promise<Layer[]> {
  const iterations = quick ? 30 : 300;
  const warmup = quick ? 10 : 50;
  const backend = await startReferenceBackend({
    users: [
      { token: TOKEN, freeRemaining: 1_000_000_000, freeTotal: 1_000_000_000, creditsPerUse: 1, creditsBalance: 0 },
    ],
  });
  const { scheduler, skipFreePeriod } = chargedClock();
  const url = `${backend.url}/ai/v5/service/free_trial`;
  const headers = { accept: 'application/json', 'content-type': 'application/json', ...HEADERS };
  const body = () => JSON.stringify({ module: 'generator_bench', external_id: uuidv4() });
  const api = createBillingApi(
    {
      baseUrl: backend.url,
      headers: HEADERS,
      fetch: fetchFn,
      scheduler,
      timeoutMs: 10_000,
      policy: { ...defaultRetryPolicy, retries: 2 },
    },
    'bench',
  );
  const client = createClient({ baseUrl: backend.url, appKey: 'bench', headers: HEADERS, scheduler });
  const layers: Array<[string, () => Promise<unknown>]> = [
    [
      'raw fetch + text + JSON.parse',
      async () => JSON.parse(await (await fetchFn(url, { method: 'POST', headers, body: body() })).text()),
    ],
    [
      '+ AbortController signal and a timeout timer',
      async () => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 10_000);
        try {
          const response = await fetchFn(url, { method: 'POST', headers, body: body(), signal: controller.signal });
          return JSON.parse(await response.text());
        } finally {
          clearTimeout(timer);
        }
      },
    ],
    [
      'exchange (transport fetch, scheduler timer, abort)',
      async () => {
        const controller = new AbortController();
        const timer = scheduler.schedule(() => controller.abort(), 10_000);
        try {
          const init = { method: 'POST', headers, body: body(), signal: controller.signal };
          return JSON.parse((await exchange(fetchFn, url, init)).text);
        } finally {
          timer.unsubscribe();
        }
      },
    ],
    ['api.consume (+ headers, retry, decode)', () => api.consume(uuidv4())],
    ['billing.consume() (+ engine, free-period timer)', () => (skipFreePeriod(), client.billing.consume())],
  ];
  let samples: number[][];
  try {
    samples = await sampleInTurn(
      layers.map(([, side]) => side),
      { warmup, iterations },
    );
  } finally {
    client.billing.dispose();
    await backend.close();
  }
  return layers.map(([layer], i) => ({ layer, medianMs: median(samples[i] ?? []) }));
}
