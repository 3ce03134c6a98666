import type { Page } from 'playwright-core';
import { REFERENCE_PATHS } from '../../lib/testing';
import { PLAYGROUND_APP_KEY } from '../../playground/server/demo-users';
import { postedIds, useRig } from './lifecycle-fixtures';
import { dataOf, showsMatch } from './status-fixtures';

// Real time: the page runs the library's default scheduler against the reference backend.
const rig = useRig();
// The free quota is per module; the page's client sends this one.
const MODULE = `generator_${PLAYGROUND_APP_KEY}`;

async function switchTo(page: Page, token: string, freeRemaining: number): Promise<void> {
  await page.locator('[data-testid="user-select"]').selectOption(token);
  await showsMatch(page, 'free-remaining', new RegExp(String(freeRemaining)));
}

/** The events log as shown, newest first: `[type, externalId, code]`. */
async function eventsShown(page: Page): Promise<string[][]> {
  return page
    .locator('[data-testid="event"]')
    .evaluateAll((items) =>
      items.map((item) => [
        item.getAttribute('data-type') ?? '',
        item.getAttribute('data-external-id') ?? '',
        item.getAttribute('data-code') ?? '',
      ]),
    );
}

describe('the playground preview line (preview()) in Chromium', () => {
  test('free count, then the free period after a charge, with the backend’s figures', async () => {
    const page = await rig.open('');
    const fiona = rig.backend.getUser('demo-free', MODULE);
    await showsMatch(page, 'preview', /This export uses 1 free use \(3 → 2\)/);
    expect(fiona.freeRemaining).toBe(3);
    expect(await dataOf(page, 'preview', 'reason')).toBe('free_count');
    await page.locator('[data-testid="export"]').click();
    await showsMatch(page, 'preview', /This export is free \(free period\)/);
    expect(await dataOf(page, 'preview', 'reason')).toBe('free_period');
    expect(rig.backend.getUser('demo-free', MODULE).freeRemaining).toBe(2);
  });

  test('credits with the balance before and after, then not enough credits', async () => {
    const page = await rig.open('');
    await switchTo(page, 'demo-credits', 0);
    const carl = rig.backend.getUser('demo-credits');
    const after = carl.creditsBalance - carl.creditsPerUse;
    await showsMatch(
      page,
      'preview',
      new RegExp(`This export costs ${carl.creditsPerUse} credits \\(${carl.creditsBalance} → ${after}\\)`),
    );
    expect(await dataOf(page, 'preview', 'can-proceed')).toBe('true');
    await switchTo(page, 'demo-broke', 0);
    const bea = rig.backend.getUser('demo-broke');
    await showsMatch(
      page,
      'preview',
      new RegExp(`Not enough credits: needs ${bea.creditsPerUse}, has ${bea.creditsBalance}`),
    );
    expect(await dataOf(page, 'preview', 'can-proceed')).toBe('false');
    expect(await dataOf(page, 'preview', 'reason')).toBe('insufficient');
  });

  test('a balance changed on the backend is priced after a return to the tab, and after a refusal (the page refreshes the balance)', async () => {
    const page = await rig.open('?user=demo-credits');
    await showsMatch(page, 'preview', /This export costs 10 credits \(100 → 90\)/);
    rig.backend.setUser('demo-credits', { creditsBalance: 15 });
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await showsMatch(page, 'preview', /This export costs 10 credits \(15 → 5\)/);
    rig.backend.setUser('demo-credits', { creditsBalance: 4 });
    await page.locator('[data-testid="export"]').click();
    await page.locator('[data-testid="log"] li[data-kind="insufficient"]').waitFor();
    await showsMatch(page, 'preview', /Not enough credits: needs 10, has 4/);
  });
});

describe('the playground events log (events$) in Chromium', () => {
  test('usage:loaded, then consume:charged with the POST’s external_id and freePeriod:started, newest first', async () => {
    const page = await rig.open('');
    await page.locator('[data-testid="event"][data-type="usage:loaded"]').waitFor();
    // Newest first: the fetch's start, then its answer.
    expect(await eventsShown(page)).toEqual([
      ['usage:loaded', '', ''],
      ['usage:started', '', ''],
    ]);
    await page.locator('[data-testid="export"]').click();
    await page.locator('[data-testid="event"][data-type="freePeriod:started"]').waitFor();
    await page.locator('[data-testid="event"][data-type="consume:charged"]').waitFor();
    const [posted] = postedIds(rig.backend);
    const shown = await eventsShown(page);
    expect(shown.slice(-2)).toEqual([
      ['usage:loaded', '', ''],
      ['usage:started', '', ''],
    ]);
    expect(shown).toContainEqual(['consume:charged', posted, '']);
    expect(shown).toContainEqual(['freePeriod:started', '', '']);
    const charged = page.locator('[data-testid="event"][data-type="consume:charged"]');
    expect(await charged.textContent()).toMatch(new RegExp(`^consume:charged at \\d+ ms · ${posted} · free use$`));
    // The token the page sends as `Authorization: Bearer demo-free` is in no event.
    const text = (await page.locator('[data-testid="events"]').textContent()) ?? '';
    expect(text).not.toMatch(/demo-free|Bearer/);
  });

  test('a refusal shows consume:denied with its external_id; a failed consume shows its code', async () => {
    const page = await rig.open('?user=demo-broke');
    await page.evaluate(() => window.__billing.startConsume('op-denied'));
    await page.locator('[data-testid="event"][data-type="consume:denied"]').waitFor();
    expect(await eventsShown(page)).toContainEqual(['consume:denied', 'op-denied', '']);
    rig.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 400 });
    await page.evaluate(() => window.__billing.startConsume('op-failed'));
    await page.locator('[data-testid="event"][data-type="consume:failed"]').waitFor();
    expect((await eventsShown(page))[0]).toEqual(['consume:failed', 'op-failed', 'http']);
  });
});
