import { Browser, type Page } from '../helpers/browser';
import { PATH } from '../helpers/client-fixture';
import { refetchOn } from '../../lib';

// Issue 23, point 3: a nudge (another tab's "changed", a refetch trigger, the balance refresh after a
// charge) joins a fetch sent after it, or queues one follow-up that every nudge arriving meanwhile shares.
let browser: Browser;
afterEach(() => browser.close());

const pairs = (page: Page) => [browser.count(PATH.count, page), browser.count(PATH.balance, page)];

describe('nudges coalesce', () => {
  it('50 "changed" nudges while a slow fetch is in flight cost one more GET pair, and the tab ends on the newest balance', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const slow = browser.open({ sync: true });
    await slow.billing.getUsage();
    browser.sent.splice(0);
    const other = browser.listen();
    // A fetch whose backend read the old balance; its answer is held on the wire.
    browser.hold = { at: 'answers', page: slow };
    const first = slow.billing.getUsage();
    await browser.settle();
    browser.backend.quota.balance = 50;
    for (let i = 0; i < 50; i += 1) other.post({ kind: 'changed' });
    await browser.settle();
    browser.release();
    await browser.settle();
    await expect(first).resolves.toMatchObject({ creditsBalance: 10 });
    expect(pairs(slow)).toEqual([2, 2]);
    expect(slow.billing.getCachedUsage()?.creditsBalance).toBe(50);
  });

  it('50 refusals in one tab cost a slow tab at most one GET pair beyond its fetch in flight', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 0, creditsPerUse: 5 });
    const [clicking, slow] = [browser.open({ sync: true }), browser.open({ sync: true })];
    await Promise.all([clicking.billing.getUsage(), slow.billing.getUsage()]);
    await browser.settle();
    browser.sent.splice(0);
    browser.hold = { at: 'requests', page: slow };
    void slow.billing.getUsage();
    const refusals = Array.from({ length: 50 }, () =>
      clicking.billing.consume().catch((e: { code: string }) => e.code),
    );
    await expect(Promise.all(refusals)).resolves.toEqual(Array(50).fill('insufficient_credits'));
    await browser.settle();
    // While the slow tab's fetch is held, every nudge shares the one queued behind it.
    expect(pairs(slow)).toEqual([1, 1]);
    browser.backend.quota.balance = 7;
    browser.release();
    await browser.settle();
    // Each refusal's "changed" carries the quota its tab shows, which the slow tab already shows: no
    // follow-up at all; the held fetch, answered after the top-up, brings the newest balance.
    expect(pairs(slow)).toEqual([1, 1]);
    expect(slow.billing.getCachedUsage()?.creditsBalance).toBe(7);
  });

  it('a nudge with no fetch in flight fetches at once; one after that answer fetches again', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const tab = browser.open({ sync: true });
    const other = browser.listen();
    await tab.billing.getUsage();
    browser.sent.splice(0);
    browser.backend.quota.balance = 20;
    other.post({ kind: 'changed' });
    await browser.settle();
    expect(pairs(tab)).toEqual([1, 1]);
    expect(tab.billing.getCachedUsage()?.creditsBalance).toBe(20);
    browser.backend.quota.balance = 30;
    other.post({ kind: 'changed' });
    await browser.settle();
    expect(pairs(tab)).toEqual([2, 2]);
    expect(tab.billing.getCachedUsage()?.creditsBalance).toBe(30);
  });

  it('interval ticks join the newest fetch: the one held, then the follow-up a nudge queued behind it', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const tab = browser.open({ sync: true, client: { refetch: refetchOn({ intervalMs: 1_000 }) } });
    const other = browser.listen();
    await tab.billing.getUsage();
    browser.sent.splice(0);
    browser.hold = { at: 'answers', page: tab };
    await browser.advance(4_000);
    expect(pairs(tab)).toEqual([1, 1]);
    browser.backend.quota.balance = 40;
    other.post({ kind: 'changed' });
    await browser.advance(3_000);
    expect(pairs(tab)).toEqual([1, 1]);
    browser.release();
    await browser.settle();
    expect(pairs(tab)).toEqual([2, 2]);
    expect(tab.billing.getCachedUsage()?.creditsBalance).toBe(40);
  });

  it('getUsage() after a nudge queued a follow-up resolves with the follow-up, not the fetch it may postdate', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const tab = browser.open({ sync: true });
    const other = browser.listen();
    await tab.billing.getUsage();
    browser.hold = { at: 'answers', page: tab };
    const early = tab.billing.getUsage();
    await browser.settle();
    browser.backend.quota.balance = 60;
    other.post({ kind: 'changed' });
    await browser.settle();
    const late = tab.billing.getUsage();
    browser.release();
    await expect(early).resolves.toMatchObject({ creditsBalance: 10 });
    await expect(late).resolves.toMatchObject({ creditsBalance: 60 });
  });

  it('the balance refresh after a credit charge does not join a balance request sent before the charge', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    const tab = browser.open();
    await tab.billing.getUsage();
    browser.sent.splice(0);
    browser.hold = { at: 'answers', page: tab };
    const early = tab.credits.getBalance(); // the backend read 10; the answer is held
    await browser.settle();
    const late = tab.credits.getBalance(); // joins it: nothing changed in between that this tab knows of
    browser.hold = null;
    const charge = tab.billing.consume();
    await browser.settle();
    browser.release();
    await expect(charge).resolves.toMatchObject({ isCredit: true });
    await expect(Promise.all([early, late])).resolves.toEqual([10, 10]);
    expect(browser.count(PATH.balance, tab)).toBe(2);
    expect(tab.billing.getCachedUsage()?.creditsBalance).toBe(8);
  });

  it('dispose() rejects a caller waiting on a queued balance refresh with disposed, and nothing more is sent', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    const tab = browser.open();
    await tab.billing.getUsage();
    browser.hold = { at: 'answers', page: tab };
    const early = tab.credits.getBalance().catch((e: { code: string }) => e.code);
    await browser.settle();
    browser.hold = null;
    const charge = tab.billing.consume();
    await browser.settle();
    const sent = browser.sent.length;
    tab.billing.dispose();
    // The charge was answered: the consume keeps it; the early balance caller hears `disposed`.
    await expect(charge).resolves.toMatchObject({ isCredit: true });
    await expect(early).resolves.toBe('disposed');
    browser.release();
    await browser.settle();
    expect(browser.sent.length).toBe(sent);
  });
});
