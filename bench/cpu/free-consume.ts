import { createClient } from '../../lib/client/create-client';
import type { Client } from '../../lib/store/billing-module';
import { UserBackend } from '../../spec/helpers/client-fixture';
import { VirtualClock } from '../../spec/helpers/virtual-clock';
import { bytesPerAsyncCall, bytesPerCall } from '../harness/alloc';
import { median } from '../harness/stats';

/** `consume()` inside a free period: no I/O, the whole engine path. */
export interface FreeConsumeFigures {
  readonly opsPerSec: number;
  /** An `await` of an already resolved promise in the same loop: the floor of any async call. */
  readonly baselineOpsPerSec: number;
  readonly ratio: number;
  /** Heap allocated per `await consume()` in a loop (short-lived garbage, the await included). */
  readonly bytesPerCall: number;
  /**
   * The same for awaiting one promise settled beforehand, as a free consume returns: what the loop's own
   * `await` allocates (on Node 20, 203 B), so `bytesPerCall` minus this is what consume() adds.
   */
  readonly baselineBytesPerCall: number;
  /**
   * Heap allocated per `consume()` call alone, not awaited: what the consume itself allocates (its caller's
   * `await` is the caller's). A free consume answers with a promise it keeps while the free count holds.
   */
  readonly bytesPerCallAlone: number;
}

/** Heap growth over many free-period consumes, after a full GC on both ends. */
export interface HeapGrowthFigures {
  readonly consumes: number;
  readonly growthBytes: number;
  /** False when the process runs without `--expose-gc`: the figure is then not meaningful. */
  readonly gcExposed: boolean;
}

const ROUNDS = 11;

// A virtual clock that never moves keeps the free period open for the whole run.
async function inFreePeriod(): Promise<Client> {
  const client = createClient({
    baseUrl: 'http://billing.bench',
    appKey: 'bench',
    fetch: new UserBackend({ freeRemaining: 3 }).fetch,
    scheduler: new VirtualClock(),
  });
  await client.billing.getUsage();
  await client.billing.consume();
  if (client.billing.check().reason !== 'free_period') throw new Error('no free period to measure');
  return client;
}

async function rate(call: () => Promise<unknown>, batch: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < batch; i++) await call();
  return batch / ((performance.now() - started) / 1000);
}

export async function measureFreeConsume({ quick = false } = {}): Promise<FreeConsumeFigures> {
  const batch = quick ? 1_000 : 5_000;
  const client = await inFreePeriod();
  const consume = () => client.billing.consume();
  const floor = () => Promise.resolve();
  const settled = Promise.resolve();
  await rate(consume, batch);
  await rate(floor, batch);
  const consumeRates: number[] = [];
  const floorRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    consumeRates.push(await rate(consume, batch));
    floorRates.push(await rate(floor, batch));
  }
  // 200 calls of today's 3.5 KB is 700 KB: under the young generation, so most chunks see no scavenge.
  const chunks = { chunk: 200, chunks: quick ? 11 : 41 };
  const figures = {
    opsPerSec: median(consumeRates),
    baselineOpsPerSec: median(floorRates),
    ratio: median(consumeRates) / median(floorRates),
    bytesPerCall: await bytesPerAsyncCall(consume, chunks),
    baselineBytesPerCall: await bytesPerAsyncCall(() => settled, chunks),
    bytesPerCallAlone: await bytesPerCall(() => void consume()),
  };
  client.billing.dispose();
  return figures;
}

export async function measureHeapGrowth(consumes = 1_000_000): Promise<HeapGrowthFigures> {
  const collect = (globalThis as { gc?: () => void }).gc;
  const client = await inFreePeriod();
  // Warm up first, so code compiled on the way is not counted as growth.
  for (let i = 0; i < 10_000; i++) await client.billing.consume();
  collect?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < consumes; i++) await client.billing.consume();
  collect?.();
  const after = process.memoryUsage().heapUsed;
  client.billing.dispose();
  return { consumes, growthBytes: after - before, gcExposed: collect !== undefined };
}
