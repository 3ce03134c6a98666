type Collect = (options?: { type?: 'minor' | 'major' }) => void;

/** `gc` when node runs with `--expose-gc` (`npm run bench` passes it). */
export function exposedGc(): Collect | undefined {
  return (globalThis as { gc?: Collect }).gc;
}

/** How to chunk the calls of a bytes-per-call measurement. */
export interface ChunkOptions {
  /** Calls per chunk: small enough that a chunk's garbage fits the young generation. */
  readonly chunk?: number;
  readonly chunks?: number;
}

/**
 * The median of `chunks` per-call heap deltas. With `--expose-gc`, a minor GC
 * empties the young generation before each chunk, so a chunk whose garbage
 * fits it sees no collection and `heapUsed` grows by exactly what the calls
 * allocated. Without it (or for a chunk that still triggers a scavenge) the
 * delta drops; most chunks see none, hence the median.
 */
async function medianChunk(runChunk: () => unknown, chunk: number, chunks: number): Promise<number> {
  const collect = exposedGc();
  const deltas: number[] = [];
  for (let c = 0; c < chunks; c++) {
    collect?.({ type: 'minor' });
    const before = process.memoryUsage().heapUsed;
    await runChunk();
    deltas.push(process.memoryUsage().heapUsed - before);
  }
  deltas.sort((a, b) => a - b);
  const middle = deltas[Math.floor(deltas.length / 2)] as number;
  return Math.max(0, middle / chunk);
}

/** Heap bytes one synchronous call allocates (its garbage, mostly): see `medianChunk`. */
export function bytesPerCall(call: () => void, { chunk = 2_000, chunks = 41 }: ChunkOptions = {}): Promise<number> {
  for (let i = 0; i < chunk * 5; i++) call();
  exposedGc()?.();
  return medianChunk(
    () => {
      for (let i = 0; i < chunk; i++) call();
    },
    chunk,
    chunks,
  );
}

/**
 * The same for an async call awaited one after the other. The `await` of the
 * loop allocates too: measure `() => Promise.resolve()` alike for the floor.
 */
export async function bytesPerAsyncCall(
  call: () => Promise<unknown>,
  { chunk = 200, chunks = 41 }: ChunkOptions = {},
): Promise<number> {
  for (let i = 0; i < chunk * 5; i++) await call();
  exposedGc()?.();
  return medianChunk(
    async () => {
      for (let i = 0; i < chunk; i++) await call();
    },
    chunk,
    chunks,
  );
}

/** Hooks of `retainedPerObject`. */
export interface RetainOptions<T> {
  /** Runs after building, before the count: drops what the build left that is not the objects' own (logs). */
  readonly settle?: () => void;
  /** Runs on each object after the count (e.g. `dispose()`). */
  readonly release?: (object: T) => void;
}

/**
 * Heap bytes each of `n` objects keeps alive: full GC, build them (kept in an
 * array sized beforehand), full GC, growth of `heapUsed` divided by `n`. The
 * objects never leave this function: a caller holding the array (even in a
 * suspended async frame's registers) would skew the next measurement. Needs
 * `--expose-gc`; without it the figure is NaN.
 */
export async function retainedPerObject<T>(
  n: number,
  build: (i: number) => T | Promise<T>,
  { settle, release }: RetainOptions<T> = {},
): Promise<number> {
  const collect = exposedGc();
  if (collect === undefined) return NaN;
  const kept = new Array<T>(n);
  collect();
  collect();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) kept[i] = await build(i);
  settle?.();
  // Microtasks and immediates the build queued get their turn before the count.
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  collect();
  const after = process.memoryUsage().heapUsed;
  if (release !== undefined) for (const object of kept) release(object);
  kept.fill(undefined as T);
  return (after - before) / n;
}
