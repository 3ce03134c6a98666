import type { Page } from 'playwright-core';
import { outcomeOf, postedIds, startConsume, useRig } from './lifecycle-fixtures';
import { advance, decision, installClock } from './tab-fixtures';

// Issue 23 in real Chromium, tabs with tabSync(): a broken platform API changes no charge where Web Locks
// still work, and a wall-clock step before a tab joins costs neither side. Real time; where a spec moves
// the clocks it does so through tab-fixtures.ts.
const rig = useRig();
// Three pages and real time: generous on a loaded machine (nothing here asserts a duration).
const SLOW = 90_000;

async function tabs(n: number): Promise<Page[]> {
  const pages: Page[] = [];
  for (let i = 0; i < n; i += 1) pages.push(await rig.open('?sync=broadcast'));
  return pages;
}

/** Every tab starts a consume at once; resolves with whether each caller heard success. */
async function clickAtOnce(pages: readonly Page[]): Promise<boolean[]> {
  await Promise.all(pages.map((page, i) => startConsume(page, `at-once-${i}`)));
  return Promise.all(pages.map(async (page, i) => (await outcomeOf(page, `at-once-${i}`)).ok));
}

describe('a missing or broken platform API (tabSync, Chromium)', () => {
  test(
    'navigator.locks.query deleted: clicks in three tabs at once make one charge',
    async () => {
      await rig.context.addInitScript(() => {
        delete (LockManager.prototype as { query?: unknown }).query;
        // Busy pages: each channel message is handled 300 ms late, so the next lock holder cannot count on
        // having heard the charge's message before it decides.
        const Native = window.BroadcastChannel;
        window.BroadcastChannel = class extends Native {
          override set onmessage(handler: ((event: MessageEvent) => void) | null) {
            super.onmessage =
              handler && ((event: MessageEvent) => void setTimeout(() => handler.call(this, event), 300));
          }
        };
      });
      const pages = await tabs(3);
      expect(await pages[0]?.evaluate(() => typeof navigator.locks.query)).toBe('undefined');
      expect(await clickAtOnce(pages)).toEqual([true, true, true]);
      expect(postedIds(rig.backend)).toHaveLength(1);
      expect(rig.backend.charges()).toHaveLength(1);
    },
    SLOW,
  );

  test(
    'a BroadcastChannel constructor that throws SecurityError: each tab bills on its own (issue 30), one warning each, no page error',
    async () => {
      await rig.context.addInitScript(() => {
        (window as { BroadcastChannel: unknown }).BroadcastChannel = function BroadcastChannel() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        };
      });
      const warnings: string[] = [];
      const errors: string[] = [];
      rig.context.on('console', (message) => {
        if (message.type() === 'warning' && message.text().includes('BroadcastChannel')) warnings.push(message.text());
        if (message.type() === 'error') errors.push(message.text());
      });
      rig.context.on('weberror', (error) => errors.push(String(error.error())));
      const pages = await tabs(2);
      expect(await clickAtOnce(pages)).toEqual([true, true]);
      // No channel, no period message: each click is its own operation, charged once (docs/recipes/cross-tab.md).
      expect([...postedIds(rig.backend)].sort()).toEqual(['at-once-0', 'at-once-1']);
      expect(rig.backend.charges()).toHaveLength(2);
      expect(warnings).toHaveLength(2); // one per page's client
      expect(warnings[0]).toMatch(/SecurityError/);
      expect(errors).toEqual([]);
    },
    SLOW,
  );
});

describe('the wall clock steps, then a tab joins (tabSync, Chromium)', () => {
  test.each([
    ['back 3 s (an NTP correction)', -3_000],
    ['back 1 h', -3_600_000],
    ['forward 1 h', 3_600_000],
  ])(
    'stepped %s: the new tab is free with the time actually left, never beyond 30 s',
    async (_label, step) => {
      await installClock(rig.context);
      const [a] = (await tabs(1)) as [Page];
      await startConsume(a, 'charged');
      expect(await outcomeOf(a, 'charged')).toMatchObject({ ok: true });
      await advance([a], 5_000);
      await a.evaluate((by) => window.__clock.step(by), step);
      // The machine's clock is one: the new tab reads the same wall clock as A (A's offsets, kept in its
      // sessionStorage by tab-fixtures.ts, 5 s on and then the step).
      const wall = await a.evaluate(() => Number(window.sessionStorage.getItem('__testClockWall')));
      await rig.context.addInitScript((offset) => window.__clock.step(offset), wall);
      const d = await rig.open('?sync=broadcast');
      await d.waitForFunction(() => window.__billing.preview()?.reason === 'free_period');
      // The time left as A, whose period it is, counts it on its own monotonic clock (whole seconds).
      const [own, joined] = [await decision(a), await decision(d)];
      expect(own.seconds).toBeGreaterThan(10);
      expect(Math.abs(joined.seconds - own.seconds)).toBeLessThanOrEqual(1);
      await startConsume(d, 'joined');
      expect(await outcomeOf(d, 'joined')).toMatchObject({ ok: true });
      expect(postedIds(rig.backend)).toEqual(['charged']);
      // Still free 2 s before A's end; over 1 s after it (both clocks move on in every page).
      await advance([a, d], (own.seconds - 2) * 1_000);
      expect(await decision(d)).toMatchObject({ reason: 'free_period' });
      await advance([a, d], 3_000);
      expect(await decision(d)).toMatchObject({ reason: 'free_count' });
    },
    SLOW,
  );
});
