// Issue 25 §8: the playground and a cross-tab smoke in Firefox ESR, driven by puppeteer-core over
// WebDriver BiDi (Playwright's Firefox cannot be downloaded here). puppeteer-core is ESM only, which
// Jest's CommonJS run cannot load, so this suite runs on Node's test runner:
//   npm run test:firefox     (FIREFOX_PATH to use another binary than /usr/bin/firefox-esr)
// Real time, as in spec/browser/: the pages run the library's default scheduler.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { REFERENCE_PATHS, type RequestRecord } from '../../lib/testing';
import type { HookOutcome } from '../../playground/page/test-hooks';
import { startPlayground, type Playground } from '../../playground/server/start-playground';

const FIREFOX = process.env['FIREFOX_PATH'] || '/usr/bin/firefox-esr';
// Hang guards for one wait, not timings: a loaded machine runs everything here in a fraction of it.
const WAIT_MS = 20_000;

let playground: Playground;
let browser: Browser;
let context: BrowserContext;

before(async () => {
  if (!existsSync(FIREFOX)) {
    throw new Error(`Firefox not found at ${FIREFOX}: apt-get install -y firefox-esr, or set FIREFOX_PATH`);
  }
  playground = await startPlayground({ port: 0 });
  browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX,
    headless: true,
    // Firefox's first start on a fresh profile takes a minute on a loaded machine.
    timeout: 180_000,
  });
});

after(async () => {
  await browser?.close();
  await playground?.close();
});

beforeEach(async () => {
  playground.backend.reset();
  context = await browser.createBrowserContext();
});

afterEach(async () => {
  await context?.close();
});

/** A new tab at `/` plus the query, once the first usage is on screen. */
async function open(query = ''): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${playground.url}/${query}`);
  await shows(page, 'free-total', /^\d+$/);
  return page;
}

/** Waits until the element `data-testid=id` shows `text` exactly (or matches it). */
async function shows(page: Page, id: string, text: string | RegExp): Promise<void> {
  const pattern = typeof text === 'string' ? `^${text}$` : text.source;
  await page.waitForFunction(
    (testId: string, source: string) =>
      new RegExp(source).test(document.querySelector(`[data-testid="${testId}"]`)?.textContent?.trim() ?? ''),
    { timeout: WAIT_MS },
    id,
    pattern,
  );
}

const startConsume = (page: Page, externalId: string) =>
  page.evaluate((id: string) => window.__billing.startConsume(id), externalId);

async function outcomeOf(page: Page, externalId: string): Promise<HookOutcome> {
  await page.waitForFunction(
    (id: string) => window.__billing.outcomes[id] !== undefined,
    { timeout: WAIT_MS },
    externalId,
  );
  return page.evaluate((id: string) => window.__billing.outcomes[id] as HookOutcome, externalId);
}

const isConsume = (r: RequestRecord) => r.method === 'POST' && r.path === REFERENCE_PATHS.consume;
const externalIdOf = (r: RequestRecord) => String((r.body as { external_id?: unknown } | undefined)?.external_id);
const postedIds = () => playground.backend.requests().filter(isConsume).map(externalIdOf);

/** Polls the backend (in this process) until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const recoveredShown = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid="recovered-entry"]')).map((item) => [
      item.getAttribute('data-external-id') ?? '',
      item.getAttribute('data-kind') ?? '',
    ]),
  );

describe('Firefox ESR (WebDriver BiDi)', () => {
  test('the playground: the first user’s usage, a click charges one free use, a second click in the period sends nothing', async () => {
    const page = await open();
    await shows(page, 'free-remaining', '3');
    await shows(page, 'credits-balance', '50');
    await page.click('[data-testid="export"]');
    await shows(page, 'free-remaining', '2');
    assert.deepEqual(
      playground.backend.charges().map(({ token, kind }) => [token, kind]),
      [['demo-free', 'free']],
    );
    await page.click('[data-testid="export"]');
    await page.waitForSelector('[data-testid="log"] li[data-kind="free_period"]', { timeout: WAIT_MS });
    assert.equal(postedIds().length, 1);
    assert.equal(
      await page.$eval('[data-testid="verdict"]', (element) => element.getAttribute('data-reason')),
      'free_period',
    );
  });

  test('a consume in one tab starts the free period in the other, which then sends no POST', async () => {
    const a = await open('?sync=broadcast');
    const b = await open('?sync=broadcast');
    await startConsume(a, 'first');
    assert.equal((await outcomeOf(a, 'first')).ok, true);
    await shows(b, 'in-free-period', 'yes');
    await startConsume(b, 'second');
    assert.equal((await outcomeOf(b, 'second')).ok, true);
    assert.deepEqual(postedIds(), ['first']);
    assert.equal(playground.backend.charges().length, 1);
  });

  test('a top-up fetched in one tab shows in both', async () => {
    const a = await open('?sync=broadcast&user=demo-credits');
    const b = await open('?sync=broadcast&user=demo-credits');
    for (const tab of [a, b]) await shows(tab, 'credits-balance', '100');
    playground.backend.setUser('demo-credits', { creditsBalance: 500 });
    // The page's refetchOn({ focus }), as when the user comes back to tab B.
    await b.evaluate(() => void window.dispatchEvent(new Event('focus')));
    for (const tab of [a, b]) await shows(tab, 'credits-balance', '500');
  });

  test('a reload keeps the free period (reloadSafe(sessionStorage)): the reloaded page sends no POST', async () => {
    const page = await open('?storage=session');
    await startConsume(page, 'before-reload');
    assert.equal((await outcomeOf(page, 'before-reload')).ok, true);
    await shows(page, 'in-free-period', 'yes');
    await page.reload();
    await shows(page, 'free-total', /^\d+$/);
    await shows(page, 'in-free-period', 'yes');
    await startConsume(page, 'after-reload');
    assert.equal((await outcomeOf(page, 'after-reload')).ok, true);
    assert.deepEqual(postedIds(), ['before-reload']);
  });

  test('reloadSafe replays a consume a reload cut before it was answered, with the same external_id, charged once', async () => {
    const page = await open('?storage=session');
    await shows(page, 'recovered-state', 'done');
    // The POST reaches the backend and is never answered (nor applied): the reload cuts it.
    playground.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'stall' });
    await startConsume(page, 'cut-1');
    await until(() => playground.backend.requests().some((r) => r.fault === 'stall'), 'the held POST');
    await page.reload();
    await shows(page, 'recovered-state', 'done');
    assert.deepEqual(await recoveredShown(page), [['cut-1', 'free_count']]);
    // The cut POST (its body never read by the stalled backend), then only the same id: the replay (and,
    // on a machine slow enough for the cut request's timeout to fire before the reload, its retry).
    const [cut, ...later] = playground.backend.requests().filter(isConsume);
    assert.equal(cut?.fault, 'stall');
    assert.ok(later.length > 0);
    assert.deepEqual(new Set(later.map(externalIdOf)), new Set(['cut-1']));
    assert.deepEqual(
      playground.backend.charges().map((charge) => charge.externalId),
      ['cut-1'],
    );
  });

  test('the playground’s <billing-meter> and <billing-gate>: the meter shows the usage, a gate click charges once', async () => {
    const page = await open();
    const meterText = () =>
      page.evaluate(() => {
        const meter = document.querySelector('billing-meter');
        const box = meter?.shadowRoot?.querySelector('[part=meter]') as HTMLElement | null | undefined;
        return `${meter?.getAttribute('data-state')}: ${box?.innerText.replace(/\s+/g, ' ').trim()}`;
      });
    await page.waitForFunction(() => document.querySelector('billing-meter')?.getAttribute('data-state') === 'ready', {
      timeout: WAIT_MS,
    });
    assert.equal(await meterText(), 'ready: 3 of 3 free exports left 50 credits Next export is free');
    await page.click('billing-gate button');
    await shows(page, 'gate-result', 'Granted: exporting');
    await shows(page, 'free-remaining', '2');
    assert.match(await meterText(), /^ready: 2 of 3 free exports left 50 credits Next export is free Free for \d+ s$/);
    assert.equal(playground.backend.charges().length, 1);
  });
});
