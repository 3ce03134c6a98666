import { REFERENCE_PATHS } from '../../lib/testing';
import type { ReferenceBackend } from '../../lib/testing';
import { outcomeOf, recoveredShown, shows, startConsume, until, useRig } from './lifecycle-fixtures';

// Real time. The held POST is a `stall`: the backend never reads or applies it, so any
// charge the backend shows came from a later request.
const rig = useRig();

const consumePosts = (backend: ReferenceBackend) =>
  backend.requests().filter((r) => r.method === 'POST' && r.path === REFERENCE_PATHS.consume);
const stalled = (backend: ReferenceBackend) => consumePosts(backend).some((r) => r.fault === 'stall');

describe('dispose() with a consume in flight, then a new client on the same storage (reloadSafe)', () => {
  test('the caller gets disposed, and the new client neither replays nor pays for the abandoned consume', async () => {
    const page = await rig.open('?storage=session');
    await shows(page, 'recovered-state', 'done');
    rig.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'stall' });
    await startConsume(page, 'abandoned-1');
    await until(() => stalled(rig.backend), 'the held POST');

    await page.evaluate(() => window.__billing.dispose());
    expect(await outcomeOf(page, 'abandoned-1')).toMatchObject({ ok: false, code: 'disposed' });

    await page.evaluate(() => window.__billing.restart());
    await shows(page, 'recovered-state', 'done');
    expect(await recoveredShown(page)).toEqual([]);
    // The held one only: no replay of it.
    expect(consumePosts(rig.backend)).toHaveLength(1);
    expect(rig.backend.charges()).toEqual([]);
    await shows(page, 'free-remaining', '3');
  });

  test('an account switch while the export is in flight: the next user is not charged for it', async () => {
    const page = await rig.open('?storage=session');
    await shows(page, 'recovered-state', 'done');
    rig.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'stall' });
    await page.locator('[data-testid="export"]').click();
    await until(() => stalled(rig.backend), "Fiona's held POST");

    // The page disposes Fiona's client and creates Carl's on the same sessionStorage.
    await page.locator('[data-testid="user-select"]').selectOption('demo-credits');
    await shows(page, 'recovered-state', 'done');
    expect(await recoveredShown(page)).toEqual([]);
    await shows(page, 'credits-balance', '100');
    expect(consumePosts(rig.backend).map((r) => r.token)).toEqual(['demo-free']);
    expect(rig.backend.charges()).toEqual([]);
    expect(rig.backend.getUser('demo-credits').creditsBalance).toBe(100);
  });
});
