import type { Browser, CDPSession, Page } from 'playwright-core';
import { createReferenceBackend } from '../../lib/testing';
import { launchChromium } from './chromium';
import { bundlePage, routePage } from './routed-page';

// Issue 23, item 2, in Chromium: React StrictMode, hot reloads and user switches create and dispose
// clients all day. 1000 cycles with every feature on must leave no lock (held or asked for), no
// BroadcastChannel after GC, no listener on window or document, and the heap where it was.
const ORIGIN = 'https://cycles.billing.test';
const CYCLES = 1000;
const HEAP_SLACK = 1.5 * 1024 * 1024;

const PAGE_SCRIPT = `
import { createClient, refetchOn, reloadSafe, tabSync } from './lib';
import { reduxDevtools } from './lib/devtools';
const extension = { connect: () => ({ init() {}, send() {}, unsubscribe() {} }) };
const create = () =>
  createClient({
    baseUrl: location.origin,
    appKey: 'cycles',
    headers: { Authorization: 'Bearer t' },
    storage: reloadSafe(sessionStorage),
    sync: tabSync(),
    refetch: refetchOn({ focus: true, online: true, intervalMs: 60000 }),
    devtools: reduxDevtools({ extension }),
  });
// Cycle i: create, subscribe, dispose; every 50th waits for a usage fetch first, every 7th yields
// to the event loop in between (lock grants then arrive before or after the dispose).
window.cycle = async (from, to) => {
  for (let i = from; i < to; i++) {
    const client = create();
    const usage = client.billing.usage$.subscribe(() => undefined);
    const recovered = client.billing.recovered$.subscribe(() => undefined);
    if (i % 50 === 0) await client.billing.getUsage();
    if (i % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    usage.unsubscribe();
    recovered.unsubscribe();
    client.billing.dispose();
  }
};
// One client kept alive, to show that each measure sees what a live client holds.
let live = null;
window.openLive = () => void (live = create());
window.disposeLive = () => (live.billing.dispose(), (live = null));
window.locksLeft = async () => {
  const { held = [], pending = [] } = await navigator.locks.query();
  return [...held, ...pending].map((lock) => lock.name);
};
`;

let browser: Browser;
let page: Page;
let cdp: CDPSession;

beforeAll(async () => {
  const script = await bundlePage(PAGE_SCRIPT);
  browser = await launchChromium();
  page = await browser.newPage();
  const backend = createReferenceBackend({
    users: [{ token: 't', freeRemaining: 3, freeTotal: 3, creditsPerUse: 5, creditsBalance: 20 }],
  });
  await routePage(page, ORIGIN, `<!doctype html><body><script>${script}</script></body>`, backend);
  await page.goto(`${ORIGIN}/`);
  cdp = await page.context().newCDPSession(page);
});
afterAll(async () => {
  await browser?.close();
});

const cycle = (from: number, to: number) =>
  page.evaluate(
    (range) => (window as unknown as { cycle(a: number, b: number): Promise<void> }).cycle(range.from, range.to),
    { from, to },
  );
const locksLeft = () => page.evaluate(() => (window as unknown as { locksLeft(): Promise<string[]> }).locksLeft());

async function collectGarbage(): Promise<void> {
  // Twice: objects a first pass finalizes (weak references, closed ports) go in the second.
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
}

async function heapUsed(): Promise<number> {
  await collectGarbage();
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

/** How many objects with this prototype (an expression) the heap holds. */
async function liveObjects(prototype: string): Promise<number> {
  await collectGarbage();
  // In an object group released at the end: a handle the inspector keeps would keep the objects alive.
  const objectGroup = 'count';
  const { result } = await cdp.send('Runtime.evaluate', { expression: prototype, objectGroup });
  const { objects } = await cdp.send('Runtime.queryObjects', {
    prototypeObjectId: result.objectId as string,
    objectGroup,
  });
  const { result: count } = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId as string,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup });
  return count.value as number;
}

/** The listeners on window and on document, by type. */
async function listeners(): Promise<string[]> {
  const types: string[] = [];
  for (const expression of ['window', 'document']) {
    const { result } = await cdp.send('Runtime.evaluate', { expression, objectGroup: 'listeners' });
    const found = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId as string });
    types.push(...found.listeners.map((listener) => `${expression}:${listener.type}`));
    await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'listeners' });
  }
  return types.sort();
}

/** Waits until the page's lock manager lists nothing: grants and releases cross a process boundary. */
async function untilNoLocks(): Promise<string[]> {
  let left = await locksLeft();
  for (let round = 0; left.length > 0 && round < 200; round++) {
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    left = await locksLeft();
  }
  return left;
}

describe(`${CYCLES} create/subscribe/dispose cycles with reloadSafe(sessionStorage), tabSync, refetch and DevTools`, () => {
  test('leave no lock, no channel after GC, listeners at baseline, and the heap within 1.5 MB', async () => {
    // A warm-up: the code's first run compiles and caches what it keeps for the page's life.
    await cycle(0, 50);
    expect(await untilNoLocks()).toEqual([]);
    const baseline = { heap: await heapUsed(), listeners: await listeners() };

    // Each measure sees a live client: its page lock, its channel, its refetch and pagehide listeners.
    await page.evaluate(() => (window as unknown as { openLive(): void }).openLive());
    expect((await locksLeft()).some((name) => name.includes(':page:'))).toBe(true);
    expect(await liveObjects('BroadcastChannel.prototype')).toBe(1);
    expect(await listeners()).toEqual(
      [
        ...baseline.listeners,
        'document:visibilitychange',
        'window:focus',
        'window:online',
        'window:pagehide',
        'window:pageshow',
      ].sort(),
    );
    await page.evaluate(() => (window as unknown as { disposeLive(): void }).disposeLive());

    await cycle(50, 50 + CYCLES);
    expect(await untilNoLocks()).toEqual([]);
    expect(await liveObjects('BroadcastChannel.prototype')).toBe(0);
    expect(await listeners()).toEqual(baseline.listeners);
    const grown = (await heapUsed()) - baseline.heap;
    expect(grown).toBeLessThan(HEAP_SLACK);
  }, 240_000);
});
