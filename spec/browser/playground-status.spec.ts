import { REFERENCE_PATHS } from '../../lib/testing';
import { until, useRig } from './lifecycle-fixtures';
import { dataOf, openNow, READY, showsMatch, textOf } from './status-fixtures';

// Real time: the page runs the library's default scheduler. Answers are held with the
// backend's `delay` fault, so what the page shows meanwhile is read while it is held.
const rig = useRig();

describe('the playground status line (status$) in Chromium', () => {
  test('loading until the first answer, never a refusal or a top-up meanwhile, then ready', async () => {
    rig.backend.failNext(REFERENCE_PATHS.freeTrialCount, 1, { kind: 'delay', ms: 3_000 });
    const page = await openNow(rig);
    await showsMatch(page, 'status', /Loading…/);
    // The setup holds: the first answer has not come back yet.
    expect(await textOf(page, 'free-total')).toBe('–');
    expect(await dataOf(page, 'verdict', 'reason')).toBe('loading');
    expect(await textOf(page, 'export')).toBe('Export (loading…)');
    expect(await textOf(page, 'preview')).toBe('Loading the price…');
    await showsMatch(page, 'status', READY);
    expect(await dataOf(page, 'status', 'loaded')).toBe('true');
    expect(await dataOf(page, 'verdict', 'reason')).toBe('free_count');
    expect(await textOf(page, 'export')).toBe('Export');
    // Everything the four elements showed from load to ready: no refusal, no top-up before the first answer.
    const shown = await page.evaluate(() => window.__billing.shown);
    const readyAt = shown.findIndex((entry) => entry.id === 'status' && entry.text.startsWith('Ready'));
    const before = shown.slice(0, readyAt).map((entry) => entry.text);
    expect(before).toContain('Loading…');
    expect(before.filter((text) => /refused|not enough|insufficient|top up/i.test(text))).toEqual([]);
  });

  test('a consume held by the backend shows as pending, then ready again once answered', async () => {
    const page = await rig.open('');
    await showsMatch(page, 'status', READY);
    rig.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'delay', ms: 2_000 });
    await page.locator('[data-testid="export"]').click();
    await showsMatch(page, 'status', /Ready \(fetched \d+ s ago\) · 1 consume pending/);
    expect(await dataOf(page, 'status', 'pending')).toBe('1');
    // The setup holds: the backend has not answered the POST yet.
    expect(await textOf(page, 'free-remaining')).toBe('3');
    await showsMatch(page, 'free-remaining', /2/);
    await showsMatch(page, 'status', READY);
    expect(await dataOf(page, 'status', 'pending')).toBe('0');
  });

  test('a failed first fetch shows the error (not a refusal); the next successful fetch clears it', async () => {
    rig.backend.failNext(REFERENCE_PATHS.freeTrialCount, 1, { kind: 'status', status: 403 });
    const page = await openNow(rig);
    await showsMatch(page, 'status', /Not loaded · Error \(http 403\): .+/);
    expect(await dataOf(page, 'status', 'error')).toBe('http');
    expect(await dataOf(page, 'verdict', 'reason')).toBe('loading');
    expect(await textOf(page, 'export')).toBe('Export (loading…)');
    // A return to the tab refetches (refetchOn({ focus })): the answer clears the error.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await showsMatch(page, 'status', READY);
    expect(await dataOf(page, 'status', 'error')).toBe('');
    await showsMatch(page, 'free-remaining', /3/);
    await until(() => rig.backend.pendingFaults(REFERENCE_PATHS.freeTrialCount) === 0, 'the fault used');
  });
});
