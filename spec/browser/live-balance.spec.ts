import type { Page } from 'playwright-core';
import { until, useRig } from './lifecycle-fixtures';
import { meterView } from './element-page';
import { idle, READY, showsMatch, usageGets } from './status-fixtures';

// Issue 32: the playground's client is made with `refetchOn({ focus, online, when })`, `when` being
// an EventSource on the reference server's change stream (cookie authentication). Real time: the
// page runs the default scheduler and nothing here moves focus.
const rig = useRig();

/** The wire lines of the newest consume-log entry of `kind`. */
async function wireOf(page: Page, kind: string): Promise<string[]> {
  const text = await page.locator(`[data-testid="log-entry"][data-kind="${kind}"] .wire`).first().innerText();
  return text.split('\n').filter((line) => line !== '');
}

async function openFiona(): Promise<Page> {
  const page = await rig.open('');
  await showsMatch(page, 'status', READY);
  await until(() => rig.backend.changeListeners('demo-free') === 1, 'the page’s change stream');
  rig.backend.clearLog();
  return page;
}

describe('live balances in Chromium: the reference server pushes, the page refetches', () => {
  test('a top-up by another device shows in the meter and <billing-meter> with no focus or reload, for one GET pair', async () => {
    const page = await openFiona();
    rig.backend.topUp('demo-free', 25); // another device
    // Bound generous for a shared machine (the issue asks for 1 s; no timing is asserted here).
    await showsMatch(page, 'credits-balance', /75/);
    await page.waitForFunction(() =>
      (document.querySelector('billing-meter')?.shadowRoot?.textContent ?? '').includes('75 credits'),
    );
    expect((await meterView(page)).text).toContain('75 credits');
    await showsMatch(page, 'status', READY);
    expect(usageGets(rig.backend)).toEqual({ count: 1, balance: 1 });
  });

  test('the page’s “top up from another device” control: the wire log shows one GET pair for the change', async () => {
    const page = await openFiona();
    await page.locator('[data-testid="top-up-elsewhere"]').click();
    await showsMatch(page, 'credits-balance', /100/);
    await page.locator('[data-testid="log-entry"][data-kind="pushed"]').waitFor();
    expect(await wireOf(page, 'pushed')).toEqual([
      'GET /ai/v5/service/free_trial/count → 200',
      'GET /ai/v1/credit/getBalance → 200',
    ]);
    // The page's own export is not pushed back to it (its device cookie): the POST alone, no GET pair.
    await page.locator('[data-testid="export"]').click();
    await showsMatch(page, 'free-remaining', /2/);
    await idle(500);
    expect(usageGets(rig.backend)).toEqual({ count: 1, balance: 1 });
  });

  test('after dispose() the server sees the change stream end', async () => {
    const page = await openFiona();
    await page.evaluate(() => window.__billing.dispose());
    await until(() => rig.backend.changeListeners('demo-free') === 0, 'the server to see the stream end');
    rig.backend.topUp('demo-free', 25);
    await idle(300);
    expect(usageGets(rig.backend)).toEqual({ count: 0, balance: 0 });
  });
});
