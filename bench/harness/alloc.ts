/**
 * Heap bytes one call allocates, measured as the growth of `heapUsed` over
 * chunks of calls. A chunk during which the young generation was collected
 * shows a drop (or too little growth), so the median chunk is taken: most
 * chunks see no collection. Needs no flag; `gc()` (with `--expose-gc`) only
 * makes the start cleaner.
 */
export function bytesPerCall(call: () => void, { chunk = 2_000, chunks = 41 } = {}): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < chunk * 5; i++) call();
  collect?.();
  const deltas: number[] = [];
  for (let c = 0; c < chunks; c++) {
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < chunk; i++) call();
    deltas.push(process.memoryUsage().heapUsed - before);
  }
  deltas.sort((a, b) => a - b);
  const middle = deltas[Math.floor(deltas.length / 2)] as number;
  return Math.max(0, middle / chunk);
}

/** The same for an async call awaited one after the other. */
export async function bytesPerAsyncCall(
  call: () => Promise<unknown>,
  { chunk = 2_000, chunks = 41 } = {},
): Promise<number> {
  const collect = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < chunk * 5; i++) await call();
  collect?.();
  const deltas: number[] = [];
  for (let c = 0; c < chunks; c++) {
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < chunk; i++) await call();
    deltas.push(process.memoryUsage().heapUsed - before);
  }
  deltas.sort((a, b) => a - b);
  const middle = deltas[Math.floor(deltas.length / 2)] as number;
  return Math.max(0, middle / chunk);
}
