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
    const page = await openThenTopUp('', 80);
    expect(await page.evaluate(() => document.visibilityState)).toBe('visible');
    const first = Date.now();
    await returnToTab(page);
    await showsMatch(page, 'credits-balance', /80/);
    await showsMatch(page, 'status', READY);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    // The setup holds: the second signal came within the 2 s window of the first.
    expect(Date.now() - first).toBeLessThan(2_000);
    await idle(500);
    expect(usageGets(rig.backend)).toEqual({ count: 1, balance: 1 });
    // Past the window a return to the tab fetches again.
    await idle(Math.max(0, first + 2_100 - Date.now()));
    rig.backend.setUser('demo-free', { creditsBalance: 90 });
    await returnToTab(page);
    await showsMatch(page, 'credits-balance', /90/);
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

  test('?interval=1000: the balance updates by itself, about one fetch pair a second', async () => {
    const page = await openThenTopUp('?interval=1000', 60);
    await showsMatch(page, 'credits-balance', /60/);
    rig.backend.clearLog();
    await idle(2_500);
    const { count, balance } = usageGets(rig.backend);
    expect(count).toBe(balance);
    expect(count).toBeGreaterThanOrEqual(2);
    expect(count).toBeLessThanOrEqual(3);
  });

  test('without intervalMs nothing is fetched by itself over 2.5 s', async () => {
    const page = await openThenTopUp('', 60);
    await idle(2_500);
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
