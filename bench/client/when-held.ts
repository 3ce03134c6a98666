import { Subject } from 'rxjs';
import { createClient } from '../../lib/client/create-client';
import { refetchOn } from '../../lib/features/refetch';
import type { FetchLike } from '../../lib/shared/types';
import { appOptions } from './app-options';

export interface WhenHeldFigures {
  readonly values: number;
  /** Heap kept after full GC while the usage fetch is still held (NaN without `--expose-gc`). */
  readonly growthBytes: number;
  /** GET pairs answered once the held fetch was let go: the held pair and one follow-up for all the values. */
  readonly requestsAfter: number;
}

/**
 * `refetchOn({ when })` while a usage fetch is held: `values` values pushed
 * through the source (a chatty socket) while the backend has not answered,
 * then a full GC; how much heap they keep until the fetch settles. Each value
 * is a nudge that the held fetch's follow-up answers, so it must keep nothing:
 * the waits are coalesced, not just the requests. A figure, never a timed test.
 *
 * @example
 * ```ts
 * const { growthBytes } = await measureWhenHeld({ values: 100_000 });
 * ```
 */
export async function measureWhenHeld({ values = 100_000 } = {}): Promise<WhenHeldFigures> {
  const collect = (globalThis as { gc?: () => void }).gc;
  const { backend, options } = appOptions('when-held');
  let holding = false;
  const waiting: Array<() => void> = [];
  const held: FetchLike = (input, init) =>
    holding
      ? new Promise((resolve) => waiting.push(() => resolve(backend.fetch(input, init))))
      : backend.fetch(input, init);
  const source = new Subject<void>();
  const client = createClient({ ...options, fetch: held, refetch: refetchOn({ when: source }) });
  await client.billing.getUsage();
  holding = true;
  const pending = client.billing.getUsage();
  // Warm up: code compiled on first use is not the values'.
  for (let i = 0; i < 1_000; i++) source.next();
  collect?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < values; i++) source.next();
  collect?.();
  const growthBytes = collect ? process.memoryUsage().heapUsed - before : NaN;
  backend.clearLog();
  holding = false;
  waiting.splice(0).forEach((send) => send());
  await pending;
  // The follow-up the values asked for, answered too.
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 1));
  const requestsAfter = backend.requests().length / 2;
  client.billing.dispose();
  return { values, growthBytes, requestsAfter };
}
