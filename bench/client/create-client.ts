import { createClient } from '../../lib/client/create-client';
import type { Client } from '../../lib/store/billing-module';
import { retainedPerObject } from '../harness/alloc';
import { appOptions } from './app-options';
import { median } from '../harness/stats';

export interface CreateClientFigures {
  /** Median microseconds per `createClient()` call. */
  readonly microsPerCall: number;
  /** Heap a fresh client keeps alive before any call (NaN without `--expose-gc`). */
  readonly retainedBytes: number;
}

const TOKEN = 'create';

/**
 * Batches of `createClient()` with the options an app gives (baseUrl, appKey,
 * a headers record, a fetch), median of the rounds; the clients are disposed
 * outside the timed loop. Then the heap a fresh client retains, per client
 * over a batch kept alive, full GC on both ends.
 */
export async function measureCreateClient({ quick = false } = {}): Promise<CreateClientFigures> {
  const batch = quick ? 200 : 1_000;
  const rounds = quick ? 5 : 21;
  const { backend, options } = appOptions(TOKEN);
  const made: Client[] = new Array<Client>(batch);
  const micros: number[] = [];
  for (let round = -2; round < rounds; round++) {
    const started = performance.now();
    for (let i = 0; i < batch; i++) made[i] = createClient(options);
    const us = ((performance.now() - started) * 1000) / batch;
    if (round >= 0) micros.push(us);
    for (const client of made) client.billing.dispose();
  }
  const bytes = await retainedPerObject<Client>(batch, () => createClient(options), {
    release: (client) => client.billing.dispose(),
  });
  await backend.close();
  return { microsPerCall: median(micros), retainedBytes: bytes };
}
