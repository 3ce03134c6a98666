/**
 * The newest request time (`asOf`) this tab had heard of from other tabs by
 * each point of its own request numbering. A request it sent after hearing
 * of another tab's request was asked later, even when both read the same
 * millisecond on the wall clock: stamped just above what was heard, it ranks
 * newer (a hybrid logical clock), so a tie no longer keeps an older own answer.
 */
export class HeardBefore {
  // Hearings in order, each with the last request number sent before it and the newest asOf heard up to then.
  private readonly log: Array<{ readonly seq: number; readonly newest: number }> = [];
  private floor = Number.NEGATIVE_INFINITY;

  /** A message heard when `seq` was the last request number sent, about requests asked at `asOf` times. */
  heard(seq: number, ...asOf: ReadonlyArray<number | null>): void {
    const newest = Math.max(this.newestBefore(Number.POSITIVE_INFINITY), ...asOf.map((at) => at ?? -Infinity));
    this.log.push({ seq, newest });
    // A request outlives no more than its retries; older hearings only matter through their maximum.
    while (this.log.length > 64) this.floor = (this.log.shift() as { newest: number }).newest;
  }

  /** `wallAt` (when request `seq` went out, on the wall clock), raised above what was heard before it. */
  stamp(wallAt: number, seq: number): number {
    const heard = this.newestBefore(seq);
    return wallAt > heard ? wallAt : heard + 0.001;
  }

  // Heard before request `seq` went out: when the last number sent was below it.
  private newestBefore(seq: number): number {
    for (let i = this.log.length - 1; i >= 0; i--) {
      const entry = this.log[i] as { seq: number; newest: number };
      if (entry.seq < seq) return entry.newest;
    }
    return this.floor;
  }
}
