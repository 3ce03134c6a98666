import { createClient } from '../../lib/client/create-client';
import { defaultFetch } from '../../lib/platform/default-fetch';
import { startReferenceBackend } from '../../lib/testing';
// The same module of another commit's tree, which bench/against.mjs points this name at when it bundles this file.
import { createClient as createOtherClient } from 'other-tree/lib/client/create-client';
import { chargedClock } from '../harness/charged-clock';
import { sampleInTurn } from '../harness/in-turn';
import { median } from '../harness/stats';
import { rawConsume } from './overhead';

/** One round: each tree's `consume()` over the raw POST's median, taken in the same loop. */
export interface AgainstRound {
  readonly here: number;
  readonly other: number;
}

const TOKEN = 'against';
const HEADERS = { Authorization: `Bearer ${TOKEN}` };

/**
 * The raw POST, this tree's `consume()` and the other tree's, each sample
 * taken in turn in one loop (in a random order each iteration) against one
 * reference backend: drift, warm-up and garbage collection hit the three
 * alike, which separate runs of `measureWire` do not promise.
 */
export async function measureAgainst(iterations = 400, warmup = 50): Promise<AgainstRound> {
  const backend = await startReferenceBackend({
    users: [{ token: TOKEN, freeRemaining: 1e9, freeTotal: 1e9, creditsPerUse: 1, creditsBalance: 0 }],
  });
  // Every consume a charged POST: the clock jumps past the free period before each.
  const { scheduler, skipFreePeriod } = chargedClock();
  // Both trees send with this tree's fetch, the runtime's own (older trees defaulted to cross-fetch): the
  // overhead compared is the library's, not that of two HTTP clients.
  const options = { baseUrl: backend.url, appKey: 'bench', headers: HEADERS, scheduler, fetch: defaultFetch };
  const here = createClient(options);
  const other = createOtherClient(options);
  const sides = [
    rawConsume(backend.url, HEADERS),
    () => (skipFreePeriod(), here.billing.consume()),
    () => (skipFreePeriod(), other.billing.consume()),
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
