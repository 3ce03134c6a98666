import type { Page } from 'playwright-core';
import { until, useRig } from './lifecycle-fixtures';
import { idle, READY, showsMatch, usageGets } from './status-fixtures';

// Real time and the real browser: the page's client is made with
// `refetch: { onFocus: true, onOnline: true }` (plus `intervalMs` with `?interval=`, none with
// `?refetch=off`). Headless Chromium cannot move focus: focus and visibilitychange are
// dispatched, as a return to the tab fires them; `online` is the real event of setOffline(false).
const rig = useRig();

/** A return to the tab: the page becomes visible, then the window gets focus. */
async function returnToTab(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
  });
}

/**
 * Stops the page's clock (timers, Date, performance.now: Playwright's clock, installed before the
 * page opened): from here on the page's time moves only when the test moves it, so a window or an
 * interval is measured in the page's time, not in how fast this machine runs. The jump ahead is
 * room for the time this call takes; a timer due meanwhile fires once, then the page is idle.
 */
async function stopClock(page: Page): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 5_000);
  await showsMatch(page, 'status', READY);
}

/** Opens Fiona's page (balance 50), then changes her balance on the backend and forgets the log. */
async function openThenTopUp(query: string, balance: number): Promise<Page> {
  const page = await rig.open(query);
  await showsMatch(page, 'credits-balance', /50/);
  await showsMatch(page, 'status', READY);
  rig.backend.setUser('demo-free', { creditsBalance: balance });
  rig.backend.clearLog();
  return page;
}

describe('refetch through the playground’s client in Chromium', () => {
  test('a return to the tab shows the new balance with no click; a second signal within 2 s fetches nothing', async () => {
    await rig.context.clock.install();
    const page = await openThenTopUp('', 80);
    await stopClock(page);
    rig.backend.clearLog();
    expect(await page.evaluate(() => document.visibilityState)).toBe('visible');
    await returnToTab(page);
    await showsMatch(page, 'credits-balance', /80/);
    await showsMatch(page, 'status', READY);
    expect(usageGets(rig.backend)).toEqual({ count: 1, balance: 1 });
    // The page's time stands still: this signal is within 2 s of the first, and so is one 1.9 s later.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.clock.runFor(1_900);
    await returnToTab(page);
    // Past the window a return to the tab fetches again.
    await page.clock.fastForward(200);
    rig.backend.setUser('demo-free', { creditsBalance: 90 });
    await returnToTab(page);
    await showsMatch(page, 'credits-balance', /90/);
    await showsMatch(page, 'status', READY);
    // Exactly two pairs: the signals inside the window sent none (any would have gone out before the last).
    expect(usageGets(rig.backend)).toEqual({ count: 2, balance: 2 });
  });

  test('back online (the real online event) shows the new balance with no click', async () => {
    const page = await openThenTopUp('', 70);
    await rig.context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    expect(usageGets(rig.backend)).toEqual({ count: 0, balance: 0 });
    await rig.context.setOffline(false);
    await showsMatch(page, 'credits-balance', /70/);
    await idle(300);
    expect(usageGets(rig.backend)).toEqual({ count: 1, balance: 1 });
  });

  test('?refetch=off: no refetch option, so focus, visibility and online fetch nothing', async () => {
    const page = await openThenTopUp('?refetch=off', 70);
    await returnToTab(page);
    await rig.context.setOffline(true);
    await rig.context.setOffline(false);
    await idle(1_000);
    expect(usageGets(rig.backend)).toEqual({ count: 0, balance: 0 });
    await showsMatch(page, 'credits-balance', /50/);
  });

  test("?interval=1000: the balance updates by itself, one fetch pair per second of the page's time", async () => {
    await rig.context.clock.install();
    const page = await openThenTopUp('?interval=1000', 60);
    await stopClock(page);
    await showsMatch(page, 'credits-balance', /60/);
    rig.backend.clearLog();
    // In quarter seconds, each refetch landed before the next step: two ticks in one second
    // would show as two pairs, not as one shared fetch.
    for (const second of [1, 2, 3]) {
      for (let quarter = 0; quarter < 4; quarter++) {
        await page.clock.runFor(250);
        await showsMatch(page, 'status', READY);
      }
      expect(usageGets(rig.backend)).toEqual({ count: second, balance: second });
    }
    rig.backend.setUser('demo-free', { creditsBalance: 65 });
    await page.clock.runFor(1_000);
    await showsMatch(page, 'credits-balance', /65/);
  });

  test("without intervalMs nothing is fetched by itself over a minute of the page's time", async () => {
    await rig.context.clock.install();
    const page = await openThenTopUp('', 60);
    await stopClock(page);
    rig.backend.clearLog();
    await page.clock.runFor(60_000);
    await showsMatch(page, 'status', READY);
    expect(usageGets(rig.backend)).toEqual({ count: 0, balance: 0 });
    await showsMatch(page, 'credits-balance', /50/);
  });

  test('switching user disposes the old client: its interval stops, only the new user is fetched', async () => {
    const page = await openThenTopUp('?interval=1000', 50);
    await page.locator('[data-testid="user-select"]').selectOption('demo-credits');
    await showsMatch(page, 'credits-balance', /100/);
    rig.backend.clearLog();
    await until(() => usageGets(rig.backend).count >= 2, 'two refetches of the new client');
    const tokens = new Set(rig.backend.requests().map((r) => r.token));
    expect([...tokens]).toEqual(['demo-credits']);
  });
});
