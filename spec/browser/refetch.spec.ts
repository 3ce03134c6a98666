import { build } from 'esbuild';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { devFlag } from '../../scripts/dev-flag.cjs';

// armRefetch alone, on Chromium's real window, document and navigator (its
// default target) and the real monotonic scheduler: the listeners it adds
// (read through the DevTools protocol), the real online event, the interval.
const ENTRY =
  "export { armRefetch } from './lib/features/refetch/refetch'; export { monotonicScheduler } from './lib/shared/scheduler';";
const OURS = ['focus', 'online', 'visibilitychange'];

let browser: Browser;
let bundle: string;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;

beforeAll(async () => {
  const out = await build({
    stdin: { contents: ENTRY, resolveDir: resolve(__dirname, '../..'), loader: 'ts' },
    bundle: true,
    plugins: [devFlag],
    format: 'iife',
    globalName: 'refetchModule',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]?.text ?? '';
  browser = await launchChromium();
});
afterAll(() => browser?.close());
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  await page.setContent('<!doctype html><title>refetch</title>');
  await page.addScriptTag({ content: bundle });
  cdp = await context.newCDPSession(page);
});
afterEach(() => context.close());

/** Arms refetch in the page with `options`; each refetch is recorded in `window.calls`. */
function arm(options: object): Promise<void> {
  return page.evaluate((given) => {
    type Arm = (options: unknown, deps: { usage: { join: () => Promise<void> }; scheduler: unknown }) => () => void;
    const w = window as unknown as {
      refetchModule: { armRefetch: Arm; monotonicScheduler: unknown };
      calls: number[];
      disarm: () => void;
    };
    const { armRefetch, monotonicScheduler } = w.refetchModule;
    w.calls = [];
    const join = async () => void w.calls.push(performance.now());
    w.disarm = armRefetch(given, { usage: { join }, scheduler: monotonicScheduler });
  }, options);
}
const calls = (): Promise<number> => page.evaluate(() => (window as unknown as { calls: number[] }).calls.length);
const disarm = (): Promise<void> => page.evaluate(() => (window as unknown as { disarm: () => void }).disarm());

/** The types of refetch's events that have listeners on `window` and `document`. */
async function listening(): Promise<string[]> {
  const types: string[] = [];
  for (const expression of ['window', 'document']) {
    const { result } = await cdp.send('Runtime.evaluate', { expression });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId as string });
    types.push(
      ...listeners
        .map((listener) => `${expression}:${listener.type}`)
        .filter((t) => OURS.includes(t.split(':')[1] as string)),
    );
  }
  return types.sort();
}

describe('armRefetch in Chromium', () => {
  test('listens on the real window and document to what is asked only, and the teardown removes it all', async () => {
    await arm({});
    expect(await listening()).toEqual([]);
    await arm({ online: true });
    expect(await listening()).toEqual(['window:online']);
    await disarm();
    await arm({ focus: true, online: true });
    expect(await listening()).toEqual(['document:visibilitychange', 'window:focus', 'window:online']);
    await disarm();
    expect(await listening()).toEqual([]);
  });

  test('offline, a focus is skipped; the real online event then refetches', async () => {
    await arm({ focus: true, online: true });
    await context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    expect(await calls()).toBe(0);
    await context.setOffline(false);
    await page.waitForFunction(() => (window as unknown as { calls: number[] }).calls.length === 1);
  });

  test('a return to the tab (visibilitychange and focus together) refetches once; a hidden page does not', async () => {
    await arm({ focus: true });
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(await calls()).toBe(0);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    expect(await calls()).toBe(1);
  });

  test('intervalMs refetches on the real scheduler until the teardown', async () => {
    await arm({ intervalMs: 1_000 });
    await page.waitForFunction(() => (window as unknown as { calls: number[] }).calls.length >= 2, null, {
      timeout: 10_000,
    });
    await disarm();
    const after = await calls();
    await page.waitForTimeout(1_500); // more than one period: a timer left armed would have fired
    expect(await calls()).toBe(after);
  });
});
