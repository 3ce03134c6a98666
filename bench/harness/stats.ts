/** Sorted copy; the inputs are samples in any order. */
function sorted(samples: readonly number[]): number[] {
  return [...samples].sort((a, b) => a - b);
}

/** The nearest-rank percentile (`p` in 0..100) of the samples. */
export function percentile(samples: readonly number[], p: number): number {
  const values = sorted(samples);
  if (values.length === 0) return NaN;
  const rank = Math.min(values.length - 1, Math.max(0, Math.ceil((p / 100) * values.length) - 1));
  return values[rank] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Median and p95 of one series of timings (milliseconds). */
export interface Spread {
  readonly median: number;
  readonly p95: number;
}

export function spread(samples: readonly number[]): Spread {
  return { median: median(samples), p95: percentile(samples, 95) };
}

/** Rounds for display and JSON, so both print the same figures. */
export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
