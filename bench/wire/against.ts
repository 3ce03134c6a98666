import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { v4 as uuidv4 } from 'uuid';
import { createClient } from '../../lib/client/create-client';
import { defaultFetch } from '../../lib/platform/default-fetch';
import { startReferenceBackend } from '../../lib/testing';
// The same module of another commit's tree, swapped in by bench/against/run.mjs when it bundles this file.
import { createClient as createOtherClient } from 'other-tree/lib/client/create-client';
import { median } from '../harness/stats';
import { raw, sampleInTurn } from './overhead';

/** One round: each tree's `consume()` over the raw POST's median, taken in the same loop. */
export interface AgainstRound {
  readonly here: number;
  readonly other: number;
}

const TOKEN = 'against';
const HEADERS = { Authorization: `Bearer ${TOKEN}` };

/**
 * The raw POST, this tree's `consume()` and the other tree's, each sample
 * taken in turn in one loop (the order rotated every iteration) against one
 * reference backend: drift, warm-up and garbage collection hit the three
 * alike, which separate runs of `measureWire` do not promise.
 */
export async function measureAgainst(iterations = 400, warmup = 50): Promise<AgainstRound> {
  const backend = await startReferenceBackend({
    users: [{ token: TOKEN, freeRemaining: 1e9, freeTotal: 1e9, creditsPerUse: 1, creditsBalance: 0 }],
  });
  // As in overhead.ts: the clock jumps past the free period before each consume, so each one is a charged POST.
  let skew = 0;
  const scheduler: SchedulerLike = {
    now: () => performance.now() + skew,
    schedule: asyncScheduler.schedule.bind(asyncScheduler) as SchedulerLike['schedule'],
  };
  // Both trees send with this tree's fetch, the runtime's own (older trees defaulted to cross-fetch): the
  // overhead compared is the library's, not that of two HTTP clients.
  const options = { baseUrl: backend.url, appKey: 'bench', headers: HEADERS, scheduler, fetch: defaultFetch };
  const here = createClient(options);
  const other = createOtherClient(options);
  const post = {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...HEADERS },
  };
  const sides = [
    () =>
      raw(`${backend.url}/ai/v5/service/free_trial`, {
        ...post,
        body: JSON.stringify({ module: 'generator_bench', external_id: uuidv4() }),
      }),
    () => ((skew += 31_000), here.billing.consume()),
    () => ((skew += 31_000), other.billing.consume()),
  ];
  let samples: number[][];
  try {
    samples = await sampleInTurn(sides, { warmup, iterations });
  } finally {
    here.billing.dispose();
    other.billing.dispose();
    await backend.close();
  }
  const [rawMs = NaN, hereMs = NaN, otherMs = NaN] = samples.map(median);
  return { here: hereMs / rawMs, other: otherMs / rawMs };
}
