import type { Page } from 'playwright-core';
import { shows, useRig } from './lifecycle-fixtures';

// Real time: Chromium's own timers drive the countdown. Chromium truncates a fractional
// timer delay, so a tick aimed at a second boundary of the period can land just before it:
// that second's value is then shown a second late, and a later tick may skip one.
const rig = useRig();
// Widgets mounted one after another while the restored period runs, at uneven offsets.
const WIDGETS = 12;
const MOUNT_GAP_MS = 137;
// Then watched for this long, sampled every SAMPLE_MS (a sample that finds a widget behind reads again RECHECK_MS later).
const WATCH_MS = 4_500;
const SAMPLE_MS = 200;
const RECHECK_MS = 60;

interface Watched {
  /** The non-zero values the widget got, in order. */
  readonly values: number[];
  /** Samples at which the widget's latest value differed from the seconds left the client reports, twice 60 ms apart. */
  readonly stale: number;
}

/** Mounts the widgets, then watches them. */
async function watchWidgets(page: Page): Promise<Watched[]> {
  return page.evaluate(
    async ({ widgets, gap, watch, every, recheck }) => {
      const hooks = window.__billing;
      const seen: Array<Array<{ seconds: number }>> = [];
      for (let i = 0; i < widgets; i += 1) {
        seen.push(hooks.watchCountdown());
        await new Promise((resolve) => setTimeout(resolve, gap + Math.random() * 3));
      }
      const stale = seen.map(() => 0);
      for (let elapsed = 0; elapsed < watch; elapsed += every) {
        await new Promise((resolve) => setTimeout(resolve, every + Math.random() * 7));
        const behind = () => seen.map((list) => list[list.length - 1]?.seconds !== hooks.secondsLeft());
        const first = behind();
        if (!first.includes(true)) continue;
        // Read again a little later: right after a boundary an on-time widget may not have ticked yet.
        await new Promise((resolve) => setTimeout(resolve, recheck));
        behind().forEach((still, i) => {
          if (still && first[i] === true) stale[i] = (stale[i] ?? 0) + 1;
        });
      }
      return seen.map((list, i) => ({
        values: list.map((entry) => entry.seconds).filter((seconds) => seconds > 0),
        stale: stale[i] ?? 0,
      }));
    },
    { widgets: WIDGETS, gap: MOUNT_GAP_MS, watch: WATCH_MS, every: SAMPLE_MS, recheck: RECHECK_MS },
  );
}

/** Each list with the steps between its consecutive values. */
const withSteps = (lists: number[][]) =>
  lists.map((values) => ({ values, steps: values.slice(1).map((value, i) => (values[i] as number) - value) }));
const allOnes = (lists: number[][]) => lists.map((values) => ({ values, steps: values.slice(1).map(() => 1) }));

describe('the countdown after a reload (reloadSafe(sessionStorage))', () => {
  test('freePeriodRemaining$ of the restored period counts down once a second, on time, no value skipped', async () => {
    const page = await rig.open('?storage=session');
    await page.locator('[data-testid="export"]').click();
    await page.locator('[data-testid="countdown"]').waitFor({ state: 'visible' });
    // Mid-second, so the restored period does not start on a whole second.
    await page.waitForTimeout(1_350);

    await page.reload();
    await shows(page, 'in-free-period', 'yes');
    const widgets = await watchWidgets(page);
    const shown = (await page.evaluate(() => window.__billing.countdown))
      .map((entry) => entry.seconds)
      .filter((seconds) => seconds > 0);

    // What the page's own countdown element showed since the reload, and what each widget got.
    const lists = [shown, ...widgets.map((widget) => widget.values)];
    expect(lists.every((values) => values.length >= 4)).toBe(true);
    expect(shown[0]).toBeLessThanOrEqual(29);
    expect(withSteps(lists)).toEqual(allOnes(lists));
    // On time: a widget lagging a second behind the client's own figure differs at nearly every
    // sample; one that is on time only between a boundary and its tick, a few milliseconds long.
    expect(widgets.map((widget) => widget.stale <= 1)).toEqual(widgets.map(() => true));
    expect(rig.backend.charges()).toHaveLength(1);
  });
});
