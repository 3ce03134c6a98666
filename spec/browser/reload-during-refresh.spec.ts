import { REFERENCE_PATHS } from '../../lib/testing';
import { postedIds, recoveredShown, shows, until, useRig } from './lifecycle-fixtures';

// Real time: the page runs the library's default scheduler; the backend holds one answer for real.
const rig = useRig();

describe('a reload during the balance refresh after a credit charge (reloadSafe(sessionStorage))', () => {
  test('the reloaded page reports the charged consume through recovered$, and the backend charged once', async () => {
    const page = await rig.open('?storage=session&user=demo-credits');
    await shows(page, 'credits-balance', '100');
    await shows(page, 'recovered-state', 'done');
    // The POST answers "charged" at once; the balance refresh that follows it is held.
    rig.backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'delay', ms: 20_000 });
    await page.locator('[data-testid="export"]').click();
    await until(
      () => rig.backend.requests().some((r) => r.path === REFERENCE_PATHS.balance && r.fault === 'delay'),
      'the held balance refresh',
    );
    const [externalId] = postedIds(rig.backend);
    expect(rig.backend.charges()).toMatchObject([{ token: 'demo-credits', externalId, kind: 'credits', amount: 10 }]);
    // The caller has not heard the outcome yet: nothing in the consume log.
    expect(await page.locator('[data-testid="log-entry"]').count()).toBe(0);

    await page.reload();

    await shows(page, 'recovered-state', 'done', 15_000);
    expect(await recoveredShown(page)).toEqual([[externalId, 'credits']]);
    await shows(page, 'credits-balance', '90');
    expect(rig.backend.charges()).toHaveLength(1);
  });
});
