import type { Page } from 'playwright-core';
import { useRig } from './lifecycle-fixtures';

// Real time in here: the page runs the library's default scheduler.
const rig = useRig();
let page: Page;

beforeEach(async () => {
  page = await rig.open('');
});

const line = () => page.locator('[data-testid="story"]');

describe('the playground’s grey line under "Usage (usage$)"', () => {
  test('follows usage$: it changes with the figures after an export', async () => {
    await line()
      .filter({ hasText: /^3 of 3 free uses left, then 10 credits per use from a balance of 50$/ })
      .waitFor();
    await page.locator('[data-testid="export"]').click();
    await line()
      .filter({ hasText: /^2 of 3 free uses left, then 10 credits per use from a balance of 50; free period active$/ })
      .waitFor();
    expect(await page.locator('[data-testid="free-remaining"]').textContent()).toBe('2');
  });

  test('the demo user’s starting description stays on the user picker', async () => {
    await page.locator('[data-testid="user-select"]').selectOption('demo-broke');
    await line()
      .filter({ hasText: /^no free use left, 10 credits per use from a balance of 5$/ })
      .waitFor();
    expect(await page.locator('[data-testid="user-select"]').getAttribute('title')).toMatch(/every export is refused/);
  });
});
