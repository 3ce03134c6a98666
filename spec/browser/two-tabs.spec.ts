import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startPlayground, type Playground } from '../../playground/server/start-playground';
import { launchChromium } from './chromium';

// Two pages of one origin in one browser context: BroadcastChannel and Web Locks are real here.
let playground: Playground;
let browser: Browser;
let context: BrowserContext;

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
  context = await browser.newContext();
});

afterEach(async () => {
  await context?.close();
});

async function openTab(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${playground.url}/?sync=broadcast`);
  await shows(page, 'free-remaining', '3');
  return page;
}

async function shows(page: Page, id: string, text: string): Promise<void> {
  await page
    .locator(`[data-testid="${id}"]`)
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

describe("two tabs with sync: 'broadcast'", () => {
  test('a charge in one tab starts the free period in the other, which then sends no POST', async () => {
    const first = await openTab();
    const second = await openTab();
    await first.locator('[data-testid="export"]').click();
    await shows(first, 'free-remaining', '2');
    await shows(second, 'free-remaining', '2');
    await shows(second, 'in-free-period', 'yes');
    await second.locator('[data-testid="export"]').click();
    await second.locator('[data-testid="log-entry"]').first().waitFor();
    expect(playground.backend.charges()).toHaveLength(1);
  });

  test('both tabs clicking at once make one charge', async () => {
    const first = await openTab();
    const second = await openTab();
    await Promise.all([
      first.locator('[data-testid="export"]').click(),
      second.locator('[data-testid="export"]').click(),
    ]);
    await first.locator('[data-testid="log-entry"]').first().waitFor();
    await second.locator('[data-testid="log-entry"]').first().waitFor();
    expect(playground.backend.charges()).toHaveLength(1);
    await shows(first, 'free-remaining', '2');
    await shows(second, 'free-remaining', '2');
  });
});
