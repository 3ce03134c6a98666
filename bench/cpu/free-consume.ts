import { createClient } from '../../lib/client';
import type { Client } from '../../lib/client-types';
import { FakeBackend, quota } from '../../spec/helpers/fake-backend';
import { VirtualClock } from '../../spec/helpers/virtual-clock';
import { bytesPerAsyncCall } from '../harness/alloc';
import { median } from '../harness/stats';

/** `consume()` inside a free period: no I/O, the whole engine path. */
export interface FreeConsumeFigures {
  readonly opsPerSec: number;
  /** An `await` of an already resolved promise in the same loop: the floor of any async call. */
  readonly baselineOpsPerSec: number;
  readonly ratio: number;
  readonly bytesPerCall: number;
}

/** Heap growth over many free-period consumes, after a full GC on both ends. */
export interface HeapGrowthFigures {
  readonly consumes: number;
  readonly growthBytes: number;
  /** False when the process runs without `--expose-gc`: the figure is then not meaningful. */
  readonly gcExposed: boolean;
}

const BATCH = 5_000;
const ROUNDS = 11;

// A virtual clock that never moves keeps the free period open for the whole run.
async function inFreePeriod(): Promise<Client> {
  const client = createClient({
    baseUrl: 'http://billing.bench',
    appKey: 'bench',
    fetch: new FakeBackend(quota({ freeRemaining: 3 })).fetch,
    scheduler: new VirtualClock(),
  });
  await client.billing.getUsage();
  await client.billing.consume();
  if (client.billing.check().reason !== 'free_period') throw new Error('no free period to measure');
  return client;
}

async function rate(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < BATCH; i++) await call();
  return BATCH / ((performance.now() - started) / 1000);
}

export async function measureFreeConsume(): Promise<FreeConsumeFigures> {
  const client = await inFreePeriod();
  const consume = () => client.billing.consume();
  const floor = () => Promise.resolve();
  await rate(consume);
  await rate(floor);
  const consumeRates: number[] = [];
  const floorRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    consumeRates.push(await rate(consume));
    floorRates.push(await rate(floor));
  }
  const figures = {
    opsPerSec: median(consumeRates),
    baselineOpsPerSec: median(floorRates),
    ratio: median(consumeRates) / median(floorRates),
    bytesPerCall: await bytesPerAsyncCall(consume, { chunk: 1_000, chunks: 41 }),
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
