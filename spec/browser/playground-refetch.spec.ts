import type { Page } from 'playwright-core';
import { until, useRig } from './lifecycle-fixtures';
import { idle, READY, showsMatch, usageGets } from './status-fixtures';

// Real time and the real browser: the page's client is made with
// `refetch: refetchOn({ focus: true, online: true })` (plus `intervalMs` with `?interval=`, none with
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

  // Issue 23, point 3: each tab's own online refetch showed a change, so each nudged the others, which
  // fetched again: 5 GET pairs for 3 tabs (4 to 6 here, by timing). A `changed` now carries the quota its
  // sender shows, and a tab that shows it already (or whose own fetch in flight brings it) fetches nothing.
  test('three tabs with tabSync back online send at most one GET pair each', async () => {
    // Every channel the client opens is watched: how many `changed` it posted and heard.
    await rig.context.addInitScript(() => {
      const counts = { posted: 0, heard: 0 };
      (window as unknown as { __nudges: typeof counts }).__nudges = counts;
      const Native = window.BroadcastChannel;
      const isChanged = (data: unknown) => (data as { kind?: unknown } | null)?.kind === 'changed';
      window.BroadcastChannel = class extends Native {
        constructor(name: string) {
          super(name);
          this.addEventListener('message', ({ data }) => isChanged(data) && (counts.heard += 1));
        }
        override postMessage(data: unknown): void {
          if (isChanged(data)) counts.posted += 1;
          super.postMessage(data);
        }
      };
    });
    const tabs: Page[] = [];
    for (let i = 0; i < 3; i += 1) tabs.push(await rig.open('?sync=broadcast&user=demo-credits'));
    for (const tab of tabs) await showsMatch(tab, 'credits-balance', /100/);
    // Counted from here: each tab's first answer nudged the tabs open at the time.
    for (const tab of tabs) {
      await tab.evaluate(() => {
        const counts = (window as unknown as { __nudges: { posted: number; heard: number } }).__nudges;
        counts.posted = counts.heard = 0;
      });
    }
    await rig.context.setOffline(true);
    rig.backend.clearLog();
    rig.backend.setUser('demo-credits', { creditsBalance: 300 });
    const gets = tabs.map(() => 0);
    tabs.forEach((tab, i) =>
      // Answered requests only: one sent as the network came back may fail and be retried, which is no nudge.
      tab.on(
        'requestfinished',
        (r) => r.method() === 'GET' && r.url().includes('/ai/') && (gets[i] = (gets[i] ?? 0) + 1),
      ),
    );
    await rig.context.setOffline(false);
    for (const tab of tabs) await showsMatch(tab, 'credits-balance', /300/);
    // At rest: every nudge posted was heard by the two other tabs, and no tab has a fetch in flight.
    const state = () =>
      Promise.all(
        tabs.map((tab) =>
          tab.evaluate(() => ({
            ...(window as unknown as { __nudges: { posted: number; heard: number } }).__nudges,
            loading: window.__billing.status()?.loading ?? false,
          })),
        ),
      );
    for (let calm = 0; calm < 3;) {
      const all = await state();
      const posted = all.reduce((sum, tab) => sum + tab.posted, 0);
      const atRest = all.every((tab) => !tab.loading && tab.heard === posted - tab.posted);
      calm = atRest ? calm + 1 : 0;
      await idle(50);
    }
    expect(gets).toEqual([2, 2, 2]);
    expect(usageGets(rig.backend)).toEqual({ count: 3, balance: 3 });
  }, 60_000);
});
