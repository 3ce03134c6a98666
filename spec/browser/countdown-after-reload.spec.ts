import type { Page } from 'playwright-core';
import { shows, useRig } from './lifecycle-fixtures';

// Real time: Chromium's own timers drive the countdown. Chromium truncates a fractional
// timer delay, so a tick aimed at a second boundary of the period can land just before it.
const rig = useRig();
// Widgets mounted one after another while the restored period runs, at uneven offsets.
const WIDGETS = 12;
const MOUNT_GAP_MS = 137;
const WATCH_MS = 4_500;

type Seen = Array<{ seconds: number; at: number }>;

/** Mounts the widgets, then returns the non-zero values each one got in `WATCH_MS`. */
async function widgetValues(page: Page): Promise<number[][]> {
  const lists = await page.evaluate(
    async ({ widgets, gap, watch }) => {
      const seen: Seen[] = [];
      for (let i = 0; i < widgets; i += 1) {
        seen.push(window.__billing.watchCountdown());
        await new Promise((resolve) => setTimeout(resolve, gap + Math.random() * 3));
      }
      await new Promise((resolve) => setTimeout(resolve, watch));
      return seen;
    },
    { widgets: WIDGETS, gap: MOUNT_GAP_MS, watch: WATCH_MS },
  );
  return lists.map((list) => list.map((entry) => entry.seconds).filter((seconds) => seconds > 0));
}

/** Each list with the steps between its consecutive values. */
const withSteps = (lists: number[][]) =>
  lists.map((values) => ({ values, steps: values.slice(1).map((value, i) => (values[i] as number) - value) }));
const allOnes = (lists: number[][]) => lists.map((values) => ({ values, steps: values.slice(1).map(() => 1) }));

describe('the countdown after a reload (reloadSafe(sessionStorage))', () => {
  test('freePeriodRemaining$ of the restored period counts down once a second, no value skipped', async () => {
    const page = await rig.open('?storage=session');
    await page.locator('[data-testid="export"]').click();
    await page.locator('[data-testid="countdown"]').waitFor({ state: 'visible' });
    // Mid-second, so the restored period does not start on a whole second.
    await page.waitForTimeout(1_350);

    await page.reload();
    await shows(page, 'in-free-period', 'yes');
    const widgets = await widgetValues(page);
    const shown = (await page.evaluate(() => window.__billing.countdown))
      .map((entry) => entry.seconds)
      .filter((seconds) => seconds > 0);

    // What the page's own countdown element showed since the reload, and what each widget got.
    const lists = [shown, ...widgets];
    expect(lists.every((values) => values.length >= 4)).toBe(true);
    expect(shown[0]).toBeLessThanOrEqual(29);
    expect(withSteps(lists)).toEqual(allOnes(lists));
    expect(rig.backend.charges()).toHaveLength(1);
  });
});
