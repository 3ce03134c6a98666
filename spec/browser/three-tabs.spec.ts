import type { Page, Route } from 'playwright-core';
import { REFERENCE_PATHS } from '../../lib/testing';
import { outcomeOf, postedIds, shows, startConsume, until, useRig } from './lifecycle-fixtures';

// Three pages of one origin in one browser context, each with tabSync(): BroadcastChannel and Web Locks
// are real here (127.0.0.1 is a secure context). Real time.
const rig = useRig();

async function threeTabs(query = ''): Promise<Page[]> {
  const tabs: Page[] = [];
  for (let i = 0; i < 3; i += 1) tabs.push(await rig.open(`?sync=broadcast${query}`));
  return tabs;
}

const gets = (path: string) => rig.backend.requests().filter((r) => r.method === 'GET' && r.path === path).length;

/** Every text the element `id` of `page` shows from now on (the current one first). */
async function watchText(page: Page, id: string): Promise<void> {
  await page.evaluate((testId) => {
    const element = document.querySelector(`[data-testid="${testId}"]`) as HTMLElement;
    const seen = [element.textContent ?? ''];
    (window as { __seen?: string[] }).__seen = seen;
    new MutationObserver(() => seen.push(element.textContent ?? '')).observe(element, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  }, id);
}
/** The texts seen since `watchText`, each change once (the page redraws unchanged values too). */
const seenTexts = async (page: Page) =>
  (await page.evaluate(() => (window as { __seen?: string[] }).__seen ?? [])).filter(
    (text, i, all) => i === 0 || text !== all[i - 1],
  );

/** A refetch of the page's own, as the page's `refetchOn({ focus })` does when the user comes back to it. */
const focus = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('focus')));

describe('three tabs with tabSync()', () => {
  test('consumes in every tab at once make one charge; every caller hears it', async () => {
    const tabs = await threeTabs();
    await Promise.all(tabs.map((tab, i) => startConsume(tab, `at-once-${i}`)));
    const outcomes = await Promise.all(tabs.map((tab, i) => outcomeOf(tab, `at-once-${i}`)));
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    expect(postedIds(rig.backend)).toHaveLength(1);
    expect(rig.backend.charges()).toHaveLength(1);
    for (const tab of tabs) {
      await shows(tab, 'free-remaining', '2');
      await shows(tab, 'in-free-period', 'yes');
    }
  });

  test('clicks on Export in every tab at once make one charge', async () => {
    const tabs = await threeTabs();
    await Promise.all(tabs.map((tab) => tab.locator('[data-testid="export"]').click()));
    for (const tab of tabs) await tab.locator('[data-testid="log-entry"]').first().waitFor();
    expect(rig.backend.charges()).toHaveLength(1);
    for (const tab of tabs) await shows(tab, 'free-remaining', '2');
  });

  test('a charge in one tab starts the free period in the others, which then send no POST', async () => {
    const [a, b, c] = (await threeTabs()) as [Page, Page, Page];
    await startConsume(a, 'first');
    expect(await outcomeOf(a, 'first')).toMatchObject({ ok: true });
    await shows(b, 'in-free-period', 'yes');
    await shows(c, 'in-free-period', 'yes');
    await startConsume(b, 'second');
    await startConsume(c, 'third');
    expect(await outcomeOf(b, 'second')).toMatchObject({ ok: true });
    expect(await outcomeOf(c, 'third')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['first']);
  });

  test('a new tab shows the latest state after its own fetch, and the running free period', async () => {
    const [a] = (await threeTabs()) as [Page, Page, Page];
    await startConsume(a, 'before-d');
    expect(await outcomeOf(a, 'before-d')).toMatchObject({ ok: true });
    const countsBefore = gets(REFERENCE_PATHS.freeTrialCount);
    const d = await rig.open('?sync=broadcast');
    await shows(d, 'free-remaining', '2');
    await shows(d, 'in-free-period', 'yes');
    // Its own fetch: nothing of the quota crosses between tabs.
    expect(gets(REFERENCE_PATHS.freeTrialCount)).toBeGreaterThan(countsBefore);
    await startConsume(d, 'in-d');
    expect(await outcomeOf(d, 'in-d')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['before-d']);
  });

  test('a top-up fetched in one tab shows in all of them, and none falls back to the older balance', async () => {
    const tabs = await threeTabs('&user=demo-credits');
    const [a, b, c] = tabs as [Page, Page, Page];
    for (const tab of tabs) await shows(tab, 'credits-balance', '100');
    for (const tab of tabs) await watchText(tab, 'credits-balance');
    rig.backend.setUser('demo-credits', { creditsBalance: 500 });
    const before = gets(REFERENCE_PATHS.balance);
    await focus(b);
    for (const tab of tabs) await shows(tab, 'credits-balance', '500');
    // Each tab fetched its own (b once, a and c on its nudge), and a charge then moves every tab on.
    await until(() => gets(REFERENCE_PATHS.balance) >= before + 3, 'a balance fetch of each tab');
    await startConsume(c, 'after-top-up');
    expect(await outcomeOf(c, 'after-top-up')).toMatchObject({ ok: true, kind: 'credits' });
    for (const tab of tabs) await shows(tab, 'credits-balance', '490');
    for (const tab of [a, b, c]) expect(await seenTexts(tab)).toEqual(['100', '500', '490']);
  });

  // It failed in 4 of 5 runs when a nudge joined the tab's own fetch in flight; a nudge now starts a fresh one.
  test('a tab whose own balance fetch, sent before the top-up, answers after the nudge still ends on the top-up', async () => {
    const tabs = await threeTabs('&user=demo-credits');
    const [a, b, c] = tabs as [Page, Page, Page];
    for (const tab of tabs) await shows(tab, 'credits-balance', '100');
    // C's next balance answer is read from the backend at once (100), and kept from C until released.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let answered = false;
    await c.route(`**${REFERENCE_PATHS.balance}`, async (route: Route) => {
      const response = await route.fetch();
      answered = true;
      await held;
      await route.fulfill({ response });
    });
    await focus(c);
    await until(() => answered, "C's balance fetch, answered before the top-up");
    rig.backend.setUser('demo-credits', { creditsBalance: 500 });
    await focus(b);
    await shows(b, 'credits-balance', '500');
    await shows(a, 'credits-balance', '500');
    release();
    await until(() => gets(REFERENCE_PATHS.balance) >= 6, 'the fetches of the top-up');
    await shows(c, 'credits-balance', '500', 5_000);
  });
});
