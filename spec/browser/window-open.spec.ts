import type { Page } from 'playwright-core';
import { REFERENCE_PATHS, type Fault } from '../../lib/testing';
import {
  outcomeOf,
  postedIds,
  postsFor,
  recoveredShown,
  shows,
  startConsume,
  until,
  useRig,
} from './lifecycle-fixtures';

// Real time. The opener's POST is delayed by the backend (then applied), so the new tab starts
// while the opener's journal entry is pending, and sees it in its copy of sessionStorage.
const rig = useRig();
const HELD_MS = 4_000;

/** `delay`: the POST is applied once the hold ends; `stall`: it never is (and its body is never read). */
async function openerWithPendingConsume(
  externalId: string,
  fault: Fault = { kind: 'delay', ms: HELD_MS },
): Promise<Page> {
  // Every page of the context notes the session storage it started with, before the page's own script runs.
  await rig.context.addInitScript(() => {
    (window as { initialSession?: string }).initialSession = JSON.stringify(Object.entries(window.sessionStorage));
  });
  const opener = await rig.open('?storage=session');
  await shows(opener, 'recovered-state', 'done');
  rig.backend.failNext(REFERENCE_PATHS.consume, 1, fault);
  await startConsume(opener, externalId);
  await until(() => rig.backend.requests().some((r) => r.fault === fault.kind), "the opener's held POST");
  return opener;
}

async function openWithWindowOpen(opener: Page): Promise<Page> {
  const [tab] = await Promise.all([
    rig.context.waitForEvent('page'),
    opener.evaluate(() => void window.open(window.location.href)),
  ]);
  await tab.waitForLoadState();
  return tab;
}

const initialSession = (page: Page) => page.evaluate(() => (window as { initialSession?: string }).initialSession);

/** The new tab has loaded, and its `recovered$` has completed; then the opener's consume settles. */
async function expectNoReplay(opener: Page, tab: Page, externalId: string): Promise<void> {
  await shows(tab, 'recovered-state', 'done');
  expect(await recoveredShown(tab)).toEqual([]);
  // The setup holds: the new tab decided while the opener was still waiting for its answer.
  expect(await opener.evaluate((id) => window.__billing.outcomes[id], externalId)).toBeUndefined();
  expect(await outcomeOf(opener, externalId)).toMatchObject({ ok: true, kind: 'free_count' });
  // Only the opener's POST ever carried the id (the body of the held one is read once it is released).
  expect(postsFor(rig.backend, externalId)).toHaveLength(1);
  expect(postedIds(rig.backend)).toEqual([externalId]);
  expect(rig.backend.charges()).toMatchObject([{ externalId, kind: 'free' }]);
}

describe('a tab opened while a consume is pending in another (reloadSafe(sessionStorage))', () => {
  test('window.open: the new tab, holding a copy of sessionStorage, does not replay the opener’s consume', async () => {
    const opener = await openerWithPendingConsume('opened-1');
    const tab = await openWithWindowOpen(opener);
    // The copy is real: the new tab started with the opener's pending entry.
    expect(await initialSession(tab)).toContain('opened-1');
    await expectNoReplay(opener, tab, 'opened-1');
  });

  test('a duplicated tab (a new page started with a copy of sessionStorage) does not replay it either', async () => {
    const opener = await openerWithPendingConsume('duplicated-1');
    const copy = await opener.evaluate(() => JSON.stringify(Object.entries(window.sessionStorage)));
    expect(copy).toContain('duplicated-1');
    const tab = await rig.context.newPage();
    // What the browser's "Duplicate tab" does: the new page starts with the opener's session storage.
    await tab.addInitScript((entries: string) => {
      if (window.sessionStorage.length > 0) return;
      for (const [key, value] of JSON.parse(entries) as Array<[string, string]>)
        window.sessionStorage.setItem(key, value);
      (window as { initialSession?: string }).initialSession = JSON.stringify(Object.entries(window.sessionStorage));
    }, copy);
    await tab.goto(opener.url());
    expect(await initialSession(tab)).toContain('duplicated-1');
    await expectNoReplay(opener, tab, 'duplicated-1');
  });

  test('the opener closes before its answer: the new tab, reloaded, does not replay what the opener left, and sends no POST of it', async () => {
    // Held for good (a stall: never applied), so no timing decides what the backend charges.
    const opener = await openerWithPendingConsume('orphaned-1', { kind: 'stall' });
    const tab = await openWithWindowOpen(opener);
    await shows(tab, 'recovered-state', 'done');
    expect(await recoveredShown(tab)).toEqual([]);
    // Seen alive, the opener's entry was dropped from the copy: it was the opener's to finish (its caller
    // may yet be told it failed), and a copy that replayed it later could charge for an abandoned export.
    expect(await tab.evaluate(() => JSON.stringify(Object.entries(window.sessionStorage)))).not.toContain('orphaned-1');
    await opener.close();
    await tab.reload();

    await shows(tab, 'recovered-state', 'done');
    expect(await recoveredShown(tab)).toEqual([]);
    // recovered$ has completed: any replay would have been sent and answered by now. The stalled POST's
    // body was never read, so a POST that names the id can only be the copy's.
    expect(postsFor(rig.backend, 'orphaned-1')).toEqual([]);
    expect(rig.backend.charges()).toEqual([]);
  });
});
