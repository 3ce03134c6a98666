import { lastValueFrom, toArray } from 'rxjs';
import type { Client } from '../../lib/client-types';
import type { FetchLike } from '../../lib/types';
import type { RecoveredConsume, StorageLike } from '../../lib/feature-types';
import { settle, type VirtualClock } from '../helpers/virtual-clock';

/** A `localStorage` stand-in that survives "reloads" (clients created on it in turn), with a switch to make it throw. */
export class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  failWith: Error | null = null;
  /** Only writes throw (a full quota): reads and removals still work. */
  failWrites: Error | null = null;

  getItem(key: string): string | null {
    this.fail();
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.fail();
    if (this.failWrites !== null) throw this.failWrites;
    this.items.set(key, value);
  }

  removeItem(key: string): void {
    this.fail();
    this.items.delete(key);
  }

  private fail(): void {
    if (this.failWith !== null) throw this.failWith;
  }
}

/** A DOMException-like error, as Safari's private mode and a full quota throw. */
export function quotaError(): Error {
  return Object.assign(new Error('The quota has been exceeded. value=Bearer secret-token'), {
    name: 'QuotaExceededError',
  });
}

/**
 * Lets the backend apply a request at once but holds its answer until `release()`:
 * "the charge happened, the answer is still on the wire".
 */
export function answerHeld(inner: FetchLike): { fetch: FetchLike; release: () => void; sent: () => number } {
  let gates: Array<() => void> = [];
  let sent = 0;
  const fetch: FetchLike = async (input, init) => {
    sent++;
    const response = await inner(input, init);
    await new Promise<void>((resolve) => gates.push(resolve));
    if (init?.signal?.aborted === true) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    return response;
  };
  const release = () => {
    const open = gates;
    gates = [];
    open.forEach((go) => go());
  };
  return { fetch, release, sent: () => sent };
}

/**
 * A page that dies (a reload, a crash): its storage stays as it was at that
 * moment, and nothing of the page runs again. Disposing would clear its journal,
 * so the storage is put back as it was before the page is disposed.
 */
export async function crash(page: { readonly billing: { dispose(): void } }, storage: MemoryStorage): Promise<void> {
  const atDeath = new Map(storage.items);
  page.billing.dispose();
  // The disposed page's calls settle (and clear its journal) on later turns.
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  storage.items.clear();
  atDeath.forEach((value, key) => storage.items.set(key, value));
}

/** Lets channel messages and promises through, then moves the clock to its next timer, until `done`. */
export async function drive(clock: VirtualClock, done: () => boolean): Promise<void> {
  for (let step = 0; step < 100 && !done(); step++) {
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 3));
    await settle();
    if (done()) return;
    const due = clock.nextDue();
    if (due !== undefined) clock.advanceBy(Math.max(0, due - clock.now()));
  }
  if (!done()) throw new Error('never settled');
}

/**
 * Everything `recovered$` delivers, driving the clock meanwhile: a client asks
 * whether the owners of leftover entries are alive, for at most LIVENESS_CAP_MS.
 */
export async function recoveredAll(client: Client, clock: VirtualClock): Promise<RecoveredConsume[]> {
  let completed = false;
  const all = lastValueFrom(client.billing.recovered$.pipe(toArray())).finally(() => (completed = true));
  await drive(clock, () => completed);
  return all;
}
