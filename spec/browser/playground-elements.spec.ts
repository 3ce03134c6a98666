import type { Page } from 'playwright-core';
import { REFERENCE_PATHS } from '../../lib/testing';
import { shows, useRig } from './lifecycle-fixtures';
import { meterIn, meterView } from './element-page';

// Issue 26: the playground shows <billing-meter> and <billing-gate> beside its own UI, on the
// signed-in user's client. Real time in here: the page runs the default scheduler.
const rig = useRig();
let page: Page;

beforeEach(async () => {
  page = await rig.open('');
});

const posts = () =>
  rig.backend.requests().filter((r) => r.method === 'POST' && r.path === REFERENCE_PATHS.consume).length;

describe('the playground’s custom elements', () => {
  test('the meter shows the same usage as the page; an export through the gate moves both', async () => {
    await meterIn(page, 'ready');
    expect((await meterView(page)).text).toBe('3 of 3 free exports left 50 credits Next export is free');
    await page.locator('billing-gate button').click();
    await shows(page, 'gate-result', 'Granted: exporting');
    await shows(page, 'free-remaining', '2');
    expect((await meterView(page)).text).toMatch(
      /^2 of 3 free exports left 50 credits Next export is free Free for \d+ s$/,
    );
    expect(posts()).toBe(1);
  });

  test('a user switch hands both elements the new client', async () => {
    await meterIn(page, 'ready');
    await page.locator('[data-testid="user-select"]').selectOption('demo-broke');
    await meterIn(page, 'empty');
    expect((await meterView(page)).text).toBe(
      '0 of 3 free exports left 5 credits Next export costs 10 credits Out of credits.',
    );
    expect(await page.locator('billing-gate button').isDisabled()).toBe(true);
  });
});
