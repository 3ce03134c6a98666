import { createClient } from '../../lib/client';
import { tabSync } from '../../lib/sync';
import type { Client, ClientOptions, LocksLike } from '../../lib/types';
import { BASE_URL } from '../helpers/client-fixture';
import type { FakeBackend } from '../helpers/fake-backend';
import { VirtualClock, settle } from '../helpers/virtual-clock';

export const CHANNEL = 'unified-billing:generator_poster';

/** One browser tab: a client with its own clock (monotonic clocks of two pages share no origin). */
export interface Tab {
  readonly client: Client;
  readonly clock: VirtualClock;
}

const live: Client[] = [];
const spies: BroadcastChannel[] = [];

export function tab(backend: FakeBackend, options: Partial<ClientOptions> = {}, start = 0): Tab {
  const clock = new VirtualClock(start);
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
    const waits = tabs.map(({ clock }) => (clock.nextDue() ?? Infinity) - clock.now());
    const next = Math.min(...waits);
    if (next === Infinity) continue;
    tabs.forEach(({ clock }) => clock.advanceBy(Math.max(0, next)));
  }
  if (!done()) throw new Error('the tabs never settled');
}

/** An in-process stand-in for `navigator.locks`: one exclusive lock per name, granted in request order. */
export class FakeLocks implements LocksLike {
  readonly granted: string[] = [];
  private readonly tails = new Map<string, Promise<unknown>>();

  request<T>(name: string, options: { signal?: AbortSignal }, callback: (lock: unknown) => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const run = previous.then(() => {
      if (options.signal?.aborted === true) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      this.granted.push(name);
      return callback({ name });
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
