/** Milliseconds until `call` settles. */
export async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/**
 * Each side timed in turn, `warmup + iterations` times, the side that goes
 * first rotated every iteration so no side always follows the same one; the
 * milliseconds of each side after the warm-up.
 */
export async function sampleInTurn(
  sides: ReadonlyArray<() => Promise<unknown>>,
  { warmup, iterations }: { warmup: number; iterations: number },
): Promise<number[][]> {
  const samples: number[][] = sides.map(() => []);
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < sides.length; k++) {
      const which = (i + k) % sides.length;
      const ms = await timed(sides[which] as () => Promise<unknown>);
      if (i >= warmup) samples[which]?.push(ms);
    }
  }
  return samples;
}
