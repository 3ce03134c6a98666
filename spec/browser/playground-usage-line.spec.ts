import type { Browser, Page } from 'playwright-core';
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
  page = await browser.newPage();
  await page.goto(`${playground.url}/`);
});

afterEach(async () => {
  await page?.close();
});

const line = () => page.locator('[data-testid="story"]');

describe('the playground’s grey line under "Usage (usage$)"', () => {
  test('follows usage$: it changes with the figures after an export', async () => {
    await line()
      .filter({ hasText: /^3 of 3 free uses left, then 10 credits per use from a balance of 50$/ })
      .waitFor();
    await page.locator('[data-testid="export"]').click();
    await line()
      .filter({ hasText: /^2 of 3 free uses left, then 10 credits per use from a balance of 50; free period active$/ })
      .waitFor();
    expect(await page.locator('[data-testid="free-remaining"]').textContent()).toBe('2');
  });

  test('the demo user’s starting description stays on the user picker', async () => {
    await page.locator('[data-testid="user-select"]').selectOption('demo-broke');
    await line()
      .filter({ hasText: /^no free use left, 10 credits per use from a balance of 5$/ })
      .waitFor();
    expect(await page.locator('[data-testid="user-select"]').getAttribute('title')).toMatch(/every export is refused/);
  });
});
