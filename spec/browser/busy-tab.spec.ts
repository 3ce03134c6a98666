import type { Page } from 'playwright-core';
import { REFERENCE_PATHS } from '../../lib/testing';
import { outcomeOf, shows, startConsume, until, useRig } from './lifecycle-fixtures';

// Real time, two tabs of one context with tabSync (BroadcastChannel and Web Locks are real).
// Tab B's main thread is blocked across the moment tab A's charge is answered, so B handles
// A's message seconds late: B may still be free only until 30 s after the charge answer.
const rig = useRig();
const ANSWER_DELAY_MS = 1_000;
const BLOCK_MS = 8_000;

/** Blocks the page's main thread for `ms`; resolves with the wall-clock span it was blocked. */
function busyLoop(page: Page, ms: number): Promise<{ from: number; to: number }> {
  return page.evaluate((duration) => {
    const from = Date.now();
    while (Date.now() - from < duration) {
      // Busy on purpose: no task, timer or message of this tab runs meanwhile.
    }
    return { from, to: Date.now() };
  }, ms);
}

/** The countdown B shows once it has handled the free period, and when it was read. */
async function countdownShown(page: Page): Promise<{ seconds: number; at: number }> {
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="countdown"]')?.getAttribute('data-seconds')) > 0,
  );
  return page.evaluate(() => ({
    seconds: Number(document.querySelector('[data-testid="countdown"]')?.getAttribute('data-seconds')),
    at: Date.now(),
  }));
}

describe("a busy tab while another charges (tabSync, sync: 'broadcast')", () => {
  test('the busy tab’s free period ends no later than 30 s after the charge answer', async () => {
    const a = await rig.open('?sync=broadcast');
    const b = await rig.open('?sync=broadcast');
    await shows(a, 'free-remaining', '3');
    await shows(b, 'free-remaining', '3');
    rig.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'delay', ms: ANSWER_DELAY_MS });
    await startConsume(a, 'busy-1');
    await until(() => rig.backend.requests().some((r) => r.fault === 'delay'), "A's POST");
    const blocked = await busyLoop(b, BLOCK_MS);

    const answered = await outcomeOf(a, 'busy-1');
    expect(answered).toMatchObject({ ok: true, kind: 'free_count' });
    // The setup holds: A heard its answer while B was blocked, well before B was free again.
    expect(answered.settledAt).toBeGreaterThan(blocked.from);
    expect(blocked.to - answered.settledAt).toBeGreaterThan(4_000);

    const shown = await countdownShown(b);
    await shows(b, 'in-free-period', 'yes');
    const sinceAnswer = (shown.at - answered.settledAt) / 1000;
    // Whole seconds, rounded up: at most 1 above the exact time left of a period that began at the answer.
    expect(shown.seconds).toBeLessThanOrEqual(30 - sinceAnswer + 1);
    expect(rig.backend.charges()).toHaveLength(1);
  });
});
