import { config } from 'rxjs';
import { expectConsole } from '../helpers/expect-console';
import { ChannelHub, installFakeChannel } from '../helpers/fake-channel';
import type { QueryMode } from '../helpers/fake-locks';
import { MemoryStorage } from '../helpers/memory-storage';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import { restViolations, stepViolations } from './lifecycle-invariants';
import { TOKEN, World, type Platform } from './lifecycle-world';

// The shapes of issue 23 the lifecycle model's random runs find, each as one fixed run of the model's
// world, judged by the same invariants (docs/reliability.md, "Open defects the model still finds").

let world: World | null = null;
let restore = () => undefined as void;
const unhandled: string[] = [];
const previous = config.onUnhandledError;

beforeAll(() => {
  restore = installFakeChannel(() => world?.hub ?? new ChannelHub());
  config.onUnhandledError = (error: unknown) => void unhandled.push(`unhandled: ${String(error)}`);
});
afterAll(() => {
  config.onUnhandledError = previous;
  restore();
});
afterEach(() => {
  for (const tab of world?.live() ?? []) world?.dispose(tab);
  world = null;
  unhandled.length = 0;
});

const open = async (platform: Platform, tabs: number, balance = 10) => {
  const w = (world = new World({ free: 0, price: 1, balance }, platform));
  const opened = Array.from({ length: tabs }, () => w.open(w.newStorage()));
  await w.settle();
  return { w, tabs: opened };
};

/** The violations after the step, RxJS's late reports included. */
async function violations(w: World, atRest = false): Promise<string[]> {
  await w.settle();
  await new Promise((resolve) => setTimeout(resolve, 1));
  if (atRest) await w.quiesce();
  return [...unhandled, ...(atRest ? restViolations(w) : stepViolations(w))];
}

describe('the lifecycle model at the edges of a call and a client (issue 23, fixed runs)', () => {
  it('abort a sole getUsage caller: the plain getUsage() after it does not hear aborted', async () => {
    const { w, tabs } = await open({ sync: false, webLocks: false, shared: false }, 1);
    const first = w.start(tabs[0]!, 'getUsage');
    first.controller.abort();
    await first.settledPromise;
    const plain = w.start(tabs[0]!, 'getUsage', undefined, true);
    expect(await violations(w)).toEqual([]);
    expect(plain.outcome?.ok).toBe(true);
  });

  it.each(['throwsOnOpen', 'throwsOnPost'] as const)(
    'a BroadcastChannel that %s: nothing unhandled, and clicks in two tabs at once are each charged once (issue 30)',
    async (channel) => {
      // One warning per client that lost its channel (lib/features/sync/channel.ts): what a user's console shows.
      const warned = expectConsole('warn', 'tabSync() goes on without a BroadcastChannel (SecurityError)');
      const { w, tabs } = await open({ sync: true, webLocks: true, shared: false, channel }, 2);
      tabs.forEach((tab) => w.start(tab, 'consume', w.freshId()));
      expect(await violations(w)).toEqual([]);
      // Without a channel no tab learns the other's period: two operations, two charges, each id once.
      expect(w.state.charges()).toHaveLength(2);
      expect(new Set(w.state.charges().map((c) => c.externalId)).size).toBe(2);
      expect(warned.length).toBeLessThanOrEqual(2);
    },
  );

  it.each<QueryMode>(['missing', 'throws', 'rejects', 'junk'])(
    'Web Locks, query(): %s; clicks in two tabs at once make one charge, and a tab opened later is free',
    async (query) => {
      const { w, tabs } = await open({ sync: true, webLocks: true, shared: false, query }, 2);
      tabs.forEach((tab) => w.start(tab, 'consume', w.freshId()));
      expect(await violations(w)).toEqual([]);
      const late = w.open(w.newStorage());
      await w.settle();
      w.start(late, 'consume', w.freshId());
      expect(await violations(w)).toEqual([]);
      expect(w.state.charges()).toHaveLength(1);
    },
  );

  it('a tab frozen while it holds the consume lock: a consume in another tab still settles within its bound', async () => {
    const { w, tabs } = await open({ sync: true, webLocks: true, shared: false }, 2);
    const [holder, other] = tabs as [NonNullable<(typeof tabs)[0]>, NonNullable<(typeof tabs)[0]>];
    w.setBusy(holder, true);
    w.start(holder, 'consume', 'frozen');
    await w.settle();
    const waiting = w.start(other, 'consume', 'waiting');
    for (let i = 0; i < 5; i++) await w.advance(30_001);
    expect(await violations(w)).toEqual([]);
    expect(waiting.outcome).toBeDefined();
  });

  it('a reloaded page that dies while another tab holds the consume lock leaves its claim to the next page (seed 479532598)', async () => {
    const { w, tabs } = await open({ sync: true, webLocks: true, shared: false }, 1, 0);
    const first = tabs[0]!;
    const copy = new MemoryStorage();
    first.storage.items.forEach((value, key) => copy.items.set(key, value));
    w.open(copy).copiedFrom = first.index;
    await w.settle();
    // op-1's POST waits at the gate; the copy's click waits for the consume lock behind it.
    w.network.holdNext(P.consume, 'request');
    for (const tab of w.live()) w.start(tab, 'consume', w.freshId());
    await w.settle();
    // The first tab reloads (its page dies: the copy now holds the lock, waiting for op-1's `sent`); the
    // reloaded page dies too before the lock comes to it, and its next page starts only at rest.
    w.kill(first);
    const reloaded = w.open(first.storage);
    await w.settle();
    w.kill(reloaded);
    w.state.setUser(TOKEN, { creditsBalance: 1 });
    w.bump();
    w.calls[1]!.controller.abort();
    await w.advance(1_000);
    expect(await violations(w, true)).toEqual([]);
    expect(w.recovered.map((r) => r.item.externalId)).toEqual(['op-1']);
  });

  it.each([
    ['own storages', false],
    ['a shared storage', true],
  ])('50 clients created and disposed on %s leave no lock held or asked for, no channel open', async (_, shared) => {
    const { w } = await open({ sync: true, webLocks: true, shared }, 1);
    for (const offset of [0, 1, 2]) await w.churn(50, offset);
    expect(await violations(w, true)).toEqual([]);
    expect(w.tabs.filter((t) => t.churned === true)).toHaveLength(150);
  });
});
