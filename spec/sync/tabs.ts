import { createClient } from '../../lib/client';
import type { BillingFeature } from '../../lib/engine/feature';
import { tabSync } from '../../lib/sync';
import type { Client } from '../../lib/client-types';
import type { ClientOptions } from '../../lib/options';
import type { LocksLike } from '../../lib/feature-types';
import { BASE_URL } from '../helpers/client-fixture';
import type { FakeBackend } from '../helpers/fake-backend';
import { VirtualClock, settle } from '../helpers/virtual-clock';

export const CHANNEL = 'unified-billing:generator_poster';

/**
 * One browser tab. Tabs of a test share one virtual clock: a `scheduler` given
 * to the client is also its wall clock, which all tabs of a browser share.
 */
export interface Tab {
  readonly client: Client;
  readonly clock: VirtualClock;
}

const live: Client[] = [];
const spies: BroadcastChannel[] = [];

export function tab(backend: FakeBackend, options: Partial<ClientOptions> = {}, clock = new VirtualClock(0)): Tab {
  const client = createClient({
    baseUrl: BASE_URL,
    appKey: 'poster',
    fetch: backend.fetch,
    scheduler: clock,
    sync: tabSync(),
    ...options,
  });
  live.push(client);
  return { client, clock };
}

/**
 * Tab sync as in a page on the default clocks: its scheduler's clock starts at
 * `start` (a monotonic clock, whose origin is the page's start), while its wall
 * clock reads the time all tabs share, moving with its scheduler's.
 */
export function onOwnClock(
  start: number,
  sharedWallAtStart = 1_700_000_000_000,
): {
  clock: VirtualClock;
  sync: BillingFeature<'sync'>;
} {
  const clock = new VirtualClock(start);
  const wallNow = () => sharedWallAtStart + (clock.now() - start);
  const feature = tabSync();
  return { clock, sync: { kind: 'sync', install: (setup) => feature.install({ ...setup, wallNow }) } };
}

/** Listens on the tabs' channel like a third tab would, recording every message. */
export function spyChannel(): { messages: unknown[]; post: (data: unknown) => void } {
  const channel = new BroadcastChannel(CHANNEL);
  spies.push(channel);
  const messages: unknown[] = [];
  channel.onmessage = (event: MessageEvent) => messages.push(event.data);
  return { messages, post: (data) => channel.postMessage(data) };
}

export function closeTabs(): void {
  live.splice(0).forEach((client) => client.billing.dispose());
  spies.splice(0).forEach((channel) => channel.close());
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 2));

/**
 * Waits until the channel has been silent for a few real-time polls, so every
 * message posted so far has been delivered (delivery is real I/O even when time is virtual).
 */
export async function quiet(spy: { messages: unknown[] }): Promise<void> {
  let seen = -1;
  for (let calm = 0; calm < 3;) {
    await settle();
    await pause();
    calm = spy.messages.length === seen ? calm + 1 : 0;
    seen = spy.messages.length;
  }
}

/** Lets messages through, then moves every tab's clock to the next timer due in any of them, until `done`. */
export async function runTabs(tabs: readonly Tab[], spy: { messages: unknown[] }, done: () => boolean): Promise<void> {
  for (let step = 0; step < 200 && !done(); step++) {
    await quiet(spy);
    if (done()) return;
    const clocks = [...new Set(tabs.map(({ clock }) => clock))];
    const waits = clocks.map((clock) => (clock.nextDue() ?? Infinity) - clock.now());
    const next = Math.min(...waits);
    if (next === Infinity) continue;
    clocks.forEach((clock) => clock.advanceBy(Math.max(0, next)));
  }
  if (!done()) throw new Error('the tabs never settled');
}

/** An in-process stand-in for `navigator.locks`: one exclusive lock per name, granted in request order. */
export class FakeLocks implements LocksLike {
  readonly granted: string[] = [];
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly held = new Map<string, number>();

  /** The names held now, as `navigator.locks.query()` reports them. */
  query(): Promise<{ held: Array<{ name: string }>; pending: Array<{ name: string }> }> {
    const held = [...this.held].filter(([, count]) => count > 0).map(([name]) => ({ name }));
    return Promise.resolve({ held, pending: [] });
  }

  request<T>(name: string, options: { signal?: AbortSignal }, callback: (lock: unknown) => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const run = previous.then(() => {
      if (options.signal?.aborted === true) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      this.granted.push(name);
      this.held.set(name, (this.held.get(name) ?? 0) + 1);
      return Promise.resolve(callback({ name })).finally(() => this.held.set(name, (this.held.get(name) ?? 1) - 1));
    });
    this.tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  }
}

/** Settles a promise of one tab while driving every tab's clock (the lock protocol runs on their timers). */
export async function settleTabs<T>(
  tabs: readonly Tab[],
  spy: { messages: unknown[] },
  promise: Promise<T>,
): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => (settled = true));
  watched.catch(() => undefined);
  await runTabs(tabs, spy, () => settled);
  return watched;
}
