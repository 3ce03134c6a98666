import type { Page } from 'playwright-core';
import { outcomeOf, postedIds, recoveredShown, shows, startConsume, useRig } from './lifecycle-fixtures';
import { advance, advanceTo, decision, installClock } from './tab-fixtures';

// The real-Chromium findings of issue 16, one test each, on reloadSafe() without tabSync(). Each page's
// Date.now() and performance.now() run through offsets the test moves (tab-fixtures.ts): time passes, or
// the wall clock steps, without waiting; timers still run in real time.
const rig = useRig();
const PERIODS = 'unified-billing:generator_playground:periods';

describe('two tabs on one localStorage (reloadSafe(localStorage), no tabSync)', () => {
  test("tab A's period ending does not erase tab B's: B reloaded 21 s into its period is still free", async () => {
    await installClock(rig.context);
    const a = await rig.open('?storage=local');
    const b = await rig.open('?storage=local');
    await startConsume(a, 'a-1');
    expect(await outcomeOf(a, 'a-1')).toMatchObject({ ok: true });
    await advance([a, b], 9_000);
    await startConsume(b, 'b-1');
    expect(await outcomeOf(b, 'b-1')).toMatchObject({ ok: true });
    // A's period is over (30.5 s), B is 21.5 s into its own; A's next beat removes A's entry, B's only.
    await advance([a, b], 21_500);
    await b.waitForFunction(
      (key) => Object.keys(JSON.parse(window.localStorage.getItem(key) ?? '{}')).length === 1,
      PERIODS,
    );
    expect(await decision(a)).toMatchObject({ reason: 'free_count' });

    await b.reload();
    await shows(b, 'in-free-period', 'yes');
    await startConsume(b, 'b-2');
    expect(await outcomeOf(b, 'b-2')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['a-1', 'b-1']);
  });
});

describe('storage that fills up mid-consume (reloadSafe(localStorage))', () => {
  test('a charge is not reported again after a reload', async () => {
    const page = await rig.open('?storage=local');
    await shows(page, 'recovered-state', 'done');
    // From the consume's first write on (its journal entry), every later write of the library throws.
    await page.evaluate(() => {
      const setItem = Storage.prototype.setItem;
      let writes = 0;
      (window as { __refused?: number }).__refused = 0;
      Storage.prototype.setItem = function (key: string, value: string) {
        if (key.startsWith('unified-billing:') && (writes += 1) > 1) {
          (window as { __refused?: number }).__refused! += 1;
          throw new DOMException('the quota is full', 'QuotaExceededError');
        }
        return setItem.call(this, key, value);
      };
    });
    await startConsume(page, 'full-1');
    expect(await outcomeOf(page, 'full-1')).toMatchObject({ ok: true, kind: 'free_count' });
    // The setup holds: a write was refused after the journal entry was written.
    expect(await page.evaluate(() => (window as { __refused?: number }).__refused)).toBeGreaterThan(0);

    await page.reload();
    await shows(page, 'recovered-state', 'done');
    expect(await recoveredShown(page)).toEqual([]);
    expect(postedIds(rig.backend)).toEqual(['full-1']);
    expect(rig.backend.charges()).toHaveLength(1);
  });
});

describe('the wall clock stepped back, then a reload (reloadSafe(sessionStorage))', () => {
  test('a step back of 3 s (NTP-sized) 5 s into the period: the restored period ends no later than 30 s after the charge', async () => {
    await installClock(rig.context);
    const page = await rig.open('?storage=session');
    await startConsume(page, 'charged');
    const { settledAt } = await outcomeOf(page, 'charged');
    await advance([page], 5_000);
    await stepBackThenBeat(page, 3_000);

    await page.reload();
    await shows(page, 'in-free-period', 'yes');
    // On the stepped clock, the charge's 30 s end at settledAt - 3 s + 30 s.
    await advanceTo([page], settledAt - 3_000 + 25_000);
    expect(await decision(page)).toMatchObject({ reason: 'free_period' });
    await advanceTo([page], settledAt - 3_000 + 30_001);
    expect(await decision(page)).toMatchObject({ reason: 'free_count', seconds: 0 });
    expect(postedIds(rig.backend)).toEqual(['charged']);
  });

  // Issue 23, item 7: the period is stored as time left on the page's monotonic clock and written
  // last at pagehide; the reloaded page dates it by its own age, so the step costs nothing.
  test.each([
    ['back 1 h', -3_600_000],
    ['forward 1 h', 3_600_000],
    ['back 3 s', -3_000],
  ])(
    'a step %s between the last beat and the reload: the period is kept, short by the reload and 1 s at most, never long',
    async (_label, step) => {
      await installClock(rig.context);
      const page = await rig.open('?storage=session');
      await startConsume(page, 'charged');
      const { settledAt } = await outcomeOf(page, 'charged');
      await advance([page], 10_000);
      // No beat is awaited: the reload reads what the page wrote going away.
      await page.evaluate((by) => window.__clock.step(by), step);

      await page.reload();
      await shows(page, 'in-free-period', 'yes');
      // The reload's own length (from its start to the old page going away) is the only time lost.
      const navigation = await page.evaluate(
        () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).unloadEventEnd,
      );
      const charged = settledAt + step;
      await advanceTo([page], charged + 29_000 - Math.ceil(navigation));
      expect(await decision(page)).toMatchObject({ reason: 'free_period' });
      await advanceTo([page], charged + 30_001);
      expect(await decision(page)).toMatchObject({ reason: 'free_count', seconds: 0 });
      expect(postedIds(rig.backend)).toEqual(['charged']);
    },
  );
});

/** Steps the page's wall clock back by `ms`, then waits for a beat of its free period stored after the step. */
async function stepBackThenBeat(page: Page, ms: number): Promise<void> {
  await page.evaluate(
    ([by, key]) => {
      const marked = window as { __beatsAfterStep?: number };
      marked.__beatsAfterStep = 0;
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (name: string, value: string) {
        if (name === key) marked.__beatsAfterStep = (marked.__beatsAfterStep ?? 0) + 1;
        return setItem.call(this, name, value);
      };
      window.__clock.step(-by);
    },
    [ms, PERIODS] as const,
  );
  // Its last beat then reads the stepped clock, so the new page cannot see the step in it.
  await page.waitForFunction(() => ((window as { __beatsAfterStep?: number }).__beatsAfterStep ?? 0) > 0);
}
