/** Milliseconds until `call` settles. */
export async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/** The indexes `0 … count - 1` in a random order (Fisher–Yates). */
function shuffled(count: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/**
 * Each side timed in turn, `warmup + iterations` times, in a fresh random
 * order every iteration; the milliseconds of each side after the warm-up.
 * Random, not rotated: a side runs warmer after a side that shares its code
 * (two trees share rxjs and the HTTP client), and a rotation of three sides
 * puts the same side before a given one two times in three, which read the
 * same tree 0.005x slower than itself (`npm run bench:against -- HEAD`).
 */
export async function sampleInTurn(
  sides: ReadonlyArray<() => Promise<unknown>>,
  { warmup, iterations }: { warmup: number; iterations: number },
): Promise<number[][]> {
  const samples: number[][] = sides.map(() => []);
  for (let i = 0; i < warmup + iterations; i++) {
    for (const which of shuffled(sides.length)) {
      const ms = await timed(sides[which] as () => Promise<unknown>);
      if (i >= warmup) samples[which]?.push(ms);
    }
  }
  return samples;
}
