import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { REFERENCE_PATHS } from '../../lib/testing';
import { startPlayground, type Playground } from '../../playground/server/start-playground';
import { launchChromium } from './chromium';

// Real time in here: the page runs the library's default scheduler.
let playground: Playground;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  playground = await startPlayground({ port: 0 });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await playground?.close();
});

beforeEach(async () => {
  playground.backend.reset();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${playground.url}/`);
  await expectText('free-remaining', '3');
  expect(errors).toEqual([]);
});

afterEach(async () => {
  await page?.close();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

async function expectText(id: string, text: string): Promise<void> {
  await byTestId(id)
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

async function switchTo(token: string, freeRemaining: string): Promise<void> {
  await byTestId('user-select').selectOption(token);
  await expectText('free-remaining', freeRemaining);
}

function latestLogEntry() {
  return byTestId('log').locator('li').first();
}

async function countdownSeconds(): Promise<number> {
  return Number(await byTestId('countdown').getAttribute('data-seconds'));
}

describe('the playground in Chromium', () => {
  test('the page loads the first demo user’s usage and verdict', async () => {
    await expectText('free-total', '3');
    await expectText('credits-balance', '50');
    expect(await byTestId('verdict').getAttribute('data-reason')).toBe('free_count');
    expect(await byTestId('countdown').isHidden()).toBe(true);
  });

  test('a click charges one free use and the count drops', async () => {
    await byTestId('export').click();
    await expectText('free-remaining', '2');
    expect(await latestLogEntry().getAttribute('data-kind')).toBe('free_count');
    expect(playground.backend.charges()).toMatchObject([{ token: 'demo-free', kind: 'free', amount: 1 }]);
  });

  test('the countdown appears and decreases', async () => {
    await byTestId('export').click();
    await byTestId('countdown').waitFor({ state: 'visible' });
    const first = await countdownSeconds();
    expect(first).toBeGreaterThanOrEqual(28);
    expect(first).toBeLessThanOrEqual(30);
    expect(await byTestId('verdict').getAttribute('data-reason')).toBe('free_period');
    await page.waitForFunction(
      (start) => Number(document.querySelector('[data-testid="countdown"]')?.getAttribute('data-seconds')) < start,
      first,
    );
    expect(await countdownSeconds()).toBeLessThan(first);
    expect(await countdownSeconds()).toBeGreaterThan(0);
  });

  test('a second click inside the free period makes no POST', async () => {
    await byTestId('export').click();
    await expectText('free-remaining', '2');
    playground.backend.clearLog();
    await byTestId('export').click();
    await byTestId('log').locator('li[data-kind="free_period"]').waitFor();
    const posts = playground.backend
      .requests()
      .filter((r) => r.method === 'POST' && r.path === REFERENCE_PATHS.consume);
    expect(posts).toEqual([]);
    expect(playground.backend.charges()).toHaveLength(1);
    await expectText('free-remaining', '2');
  });

  test('switching to the blacklisted user shows the warning', async () => {
    await switchTo('demo-blacklisted', '2');
    expect(await byTestId('blacklist-warning').isHidden()).toBe(true);
    await byTestId('export').click();
    await byTestId('blacklist-warning').waitFor({ state: 'visible' });
    expect(await latestLogEntry().getAttribute('data-kind')).toBe('blacklisted');
    expect(playground.backend.charges()).toEqual([]);
    // A blacklisted consume starts no free period.
    expect(await byTestId('countdown').isHidden()).toBe(true);
  });

  test('switching to the broke user shows insufficient', async () => {
    await switchTo('demo-broke', '0');
    await expectText('credits-balance', '5');
    expect(await byTestId('verdict').getAttribute('data-reason')).toBe('insufficient');
    await byTestId('export').click();
    await byTestId('log').locator('li[data-kind="insufficient"]').waitFor();
    expect(await latestLogEntry().textContent()).toContain('Insufficient');
    expect(playground.backend.charges()).toEqual([]);
    const posts = playground.backend.requests().filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.token, r.code])).toEqual([['demo-broke', 20101]]);
  });

  test('the user on credits pays and the balance is refreshed', async () => {
    await switchTo('demo-credits', '0');
    await byTestId('export').click();
    await expectText('credits-balance', '90');
    expect(await latestLogEntry().getAttribute('data-kind')).toBe('credits');
    expect(playground.backend.charges()).toMatchObject([{ token: 'demo-credits', kind: 'credits', amount: 10 }]);
  });

  test('every outcome in one session, saved as artifacts/playground.png', async () => {
    await switchTo('demo-blacklisted', '2');
    await byTestId('export').click();
    await byTestId('log').locator('li[data-kind="blacklisted"]').waitFor();
    await switchTo('demo-broke', '0');
    await byTestId('export').click();
    await byTestId('log').locator('li[data-kind="insufficient"]').waitFor();
    await switchTo('demo-credits', '0');
    await byTestId('export').click();
    await byTestId('log').locator('li[data-kind="credits"]').waitFor();
    await switchTo('demo-free', '3');
    await byTestId('export').click();
    await byTestId('log').locator('li[data-kind="free_count"]').waitFor();
    await byTestId('export').click();
    await byTestId('log').locator('li[data-kind="free_period"]').waitFor();
    const kinds = await byTestId('log')
      .locator('li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    expect(kinds).toEqual(['free_period', 'free_count', 'credits', 'insufficient', 'blacklisted']);
    await page.screenshot({ path: screenshotPath(), fullPage: true });
  });
});

function screenshotPath(): string {
  mkdirSync('artifacts', { recursive: true });
  return 'artifacts/playground.png';
}
