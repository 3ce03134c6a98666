import { firstValueFrom } from 'rxjs';
import { Browser, type Page } from '../../helpers/browser';
import { PATH } from '../../helpers/client-fixture';
import { refetchOn } from '../../../lib';

// Issue 16: tabs share the free period (a lock held for its length, plus a message) and a
// "changed" nudge after which each tab fetches its own usage; nothing of the quota is shared.
let browser: Browser;
afterEach(() => browser.close());

const FREE = { freeRemaining: 2, isCredit: false, isBlacklisted: false };
const balances = (page: Page) => {
  const seen: number[] = [];
  // Each balance shown, in order (usage$ also emits for the free period).
  page.billing.usage$.subscribe(({ creditsBalance }) => seen.at(-1) !== creditsBalance && seen.push(creditsBalance));
  return seen;
};

describe('tabSync: the free period', () => {
  it('with Web Locks, three tabs clicking at once make one charge: the others are free and send no POST', async () => {
    browser = new Browser();
    const [a, b, c] = [0, 1, 2].map(() => browser.open({ sync: true })) as [Page, Page, Page];
    await Promise.all([a, b, c].map((page) => page.billing.getUsage()));
    await browser.settle();
    const both = Promise.all([a, b, c].map((page, i) => page.billing.consume({ externalId: `click-${i}` })));
    await browser.settle();
    // B answers from its own cache, fetched before A's charge; its nudged refetch then shows the charge.
    await expect(both).resolves.toEqual([FREE, { ...FREE, freeRemaining: 3 }, { ...FREE, freeRemaining: 3 }]);
    expect(c.billing.getCachedUsage()).toMatchObject({ freeRemaining: 2, inFreePeriod: true });
    expect(browser.sent.filter((s) => s.path === PATH.consume)).toEqual([
      { page: 0, path: PATH.consume, externalId: 'click-0' },
    ]);
    expect(browser.backend.charged).toEqual(['click-0']);
  });

  it('a new tab asks at start, and the owner tells it the time left', async () => {
    browser = new Browser();
    const a = browser.open({ sync: true });
    await a.billing.consume();
    await browser.advance(12_000);
    const late = browser.open({ sync: true });
    await browser.settle();
    expect(await firstValueFrom(late.billing.freePeriodRemaining$)).toBe(18);
    await late.billing.consume();
    expect(browser.count(PATH.consume)).toBe(1);
  });

  it("without Web Locks, a tab adopts the period from the message, and it ends with the owner's `ended`", async () => {
    browser = new Browser({}, { webLocks: false });
    const [a, b] = [browser.open({ sync: true }), browser.open({ sync: true })];
    b.scheduler.setBusy(true); // B's main thread is busy: the message waits
    await a.billing.consume();
    await browser.advance(10_000);
    browser.wallOffset -= 5_000; // the clock is set back 5 s: by it, 25 s of the period seem left
    b.scheduler.setBusy(false);
    await browser.settle();
    expect(b.billing.check()).toEqual({ canProceed: true, reason: 'free_period' });
    await expect(b.billing.consume()).resolves.toEqual(FREE);
    expect(browser.count(PATH.consume)).toBe(1);
    await browser.advance(19_999);
    expect(b.billing.check().reason).toBe('free_period');
    await browser.advance(1); // 30 s after the charge, on its owner's clock
    expect(b.billing.check().reason).toBe('free_count');
  });

  // Issue 23: a period is told as the time left on its owner's clock, so a step of the wall clock before the
  // message arrived no longer drops it (the old message, two wall times, could not be dated after a step back).
  it.each([-3_000, -3_600_000, 3_600_000])(
    'a period message delivered after the wall clock stepped by %i ms keeps its time left',
    async (step) => {
      browser = new Browser({}, { webLocks: false });
      const [a, b] = [browser.open({ sync: true }), browser.open({ sync: true })];
      b.scheduler.setBusy(true);
      await a.billing.consume();
      browser.wallOffset += step;
      b.scheduler.setBusy(false);
      await browser.settle();
      // After a forward step the message reads as delivered late, and is dropped; B's own ask at start,
      // answered only now, still tells it the time left.
      expect(b.billing.check().reason).toBe('free_period');
      expect(await firstValueFrom(b.billing.freePeriodRemaining$)).toBe(30);
    },
  );

  it.each([
    ['its time left beyond 30 s (capped at 30 s)', (wall: number) => ({ left: 90_000, at: wall }), 'free_period', 30],
    [
      'a send time ahead of the wall clock (no time taken off)',
      (wall: number) => ({ left: 20_000, at: wall + 5_000 }),
      'free_period',
      20,
    ],
    [
      'a send time 12 s ago (delivered late: 12 s taken off)',
      (wall: number) => ({ left: 20_000, at: wall - 12_000 }),
      'free_period',
      8,
    ],
    ['a send time older than its time left', (wall: number) => ({ left: 20_000, at: wall - 20_000 }), 'free_count', 0],
    ['no time left', (wall: number) => ({ left: 0, at: wall }), 'free_count', 0],
  ])('a period message with %s', async (_label, period, reason, seconds) => {
    browser = new Browser();
    const b = browser.open({ sync: true });
    await b.billing.getUsage();
    browser.listen().post({ kind: 'period', id: 'other.1', ...period(browser.wallNow()) });
    await browser.settle();
    expect(b.billing.check().reason).toBe(reason);
    expect(await firstValueFrom(b.billing.freePeriodRemaining$)).toBe(seconds);
  });

  it('a period whose owner froze past its end is not adopted from its lock: the next consume elsewhere is charged', async () => {
    browser = new Browser();
    const [a, b] = [browser.open({ sync: true }), browser.open({ sync: true })];
    await a.billing.consume();
    a.scheduler.setBusy(true); // frozen: the period's timer, and so its lock, outlive the period
    await browser.advance(31_000);
    expect(b.billing.check().reason).toBe('free_count');
    // B finds the period lock held, asks, hears nothing from the frozen owner, and reads the locks' names.
    const second = b.billing.consume();
    await browser.settle();
    await browser.advance(500);
    await expect(second).resolves.toMatchObject({ freeRemaining: 1 });
    expect(browser.count(PATH.consume)).toBe(2);
  });

  // Found by this spec: dispose() ends the owner's periods and posts `ended`, so closing the tab that was
  // charged ends the free period in every other tab, and the next consume there is charged again.
  it('the tab that was charged closing (dispose) leaves the period running in the others', async () => {
    browser = new Browser();
    const [a, b] = [browser.open({ sync: true }), browser.open({ sync: true })];
    await a.billing.consume();
    await browser.advance(5_000);
    a.billing.dispose();
    await browser.settle();
    expect(b.billing.check().reason).toBe('free_period');
    await b.billing.consume();
    expect(browser.count(PATH.consume)).toBe(1);
  });

  // Issue 23: without a channel the Web Locks still serve (before, tabSync() then did nothing at all).
  it('without a BroadcastChannel nothing is told: each tab bills on its own, Web Locks or not (issue 30)', async () => {
    browser = new Browser(); // close() puts the fake (and so the platform's) channel back
    delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
    const [a, b] = [browser.open({ sync: true }), browser.open({ sync: true })];
    await a.billing.consume();
    await browser.settle();
    expect(b.billing.check().reason).not.toBe('free_period');
    await b.billing.consume();
    expect(browser.count(PATH.consume)).toBe(2);
    expect(b.billing.check().reason).toBe('free_period');
  });

  it('without a BroadcastChannel nor Web Locks nothing is shared: each tab charges', async () => {
    browser = new Browser({}, { webLocks: false });
    delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
    const [a, b] = [browser.open({ sync: true }), browser.open({ sync: true })];
    await a.billing.consume();
    await b.billing.consume();
    expect(browser.count(PATH.consume)).toBe(2);
  });
});

describe('tabSync: the "changed" nudge', () => {
  it('after a charge in tab A, tab B fetches its own usage once and shows it; A fetches nothing more', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    const [a, b] = [browser.open({ sync: true }), browser.open({ sync: true })];
    await Promise.all([a.billing.getUsage(), b.billing.getUsage()]);
    await browser.settle();
    const seen = balances(b);
    browser.sent.splice(0);
    await a.billing.consume();
    await browser.settle();
    expect(seen).toEqual([10, 8]);
    // A: the POST and the balance refresh after a credit charge; B: one GET pair of its own.
    expect(browser.sent.map((s) => `${s.page} ${s.path}`).sort()).toEqual(
      [`0 ${PATH.consume}`, `0 ${PATH.balance}`, `1 ${PATH.count}`, `1 ${PATH.balance}`].sort(),
    );
  });

  it('a top-up fetched in one of three tabs shows in all, each after its own fetch, and none falls back', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const tabs = [0, 1, 2].map(() => browser.open({ sync: true }));
    await Promise.all(tabs.map((page) => page.billing.getUsage()));
    await browser.settle();
    const seen = tabs.map(balances);
    browser.sent.splice(0);
    browser.backend.quota.balance = 50;
    await tabs[1]?.billing.getUsage();
    await browser.settle();
    await browser.advance(60_000);
    expect(seen).toEqual([
      [10, 50],
      [10, 50],
      [10, 50],
    ]);
    expect(tabs.map((page) => browser.count(PATH.count, page))).toEqual([1, 1, 1]);
    expect(browser.sent).toHaveLength(6);
  });

  it.each([-60_000, -1, 0, 3_600_000])(
    "the wall clock stepped by %i ms between two tabs' fetches: the other tab still shows the newer balance",
    async (step) => {
      browser = new Browser({ freeRemaining: 0, balance: 10 });
      const [a, b] = [browser.open({ sync: true }), browser.open({ sync: true })];
      await Promise.all([a.billing.getUsage(), b.billing.getUsage()]);
      await browser.settle();
      browser.wallOffset += step; // an OS clock correction: no tab orders anything by it
      browser.backend.quota.balance = 50;
      await a.billing.getUsage();
      await browser.settle();
      expect(b.billing.getCachedUsage()?.creditsBalance).toBe(50);
      browser.backend.quota.balance = 45;
      await b.billing.getUsage();
      await browser.settle();
      expect([a, b].map((page) => page.billing.getCachedUsage()?.creditsBalance)).toEqual([45, 45]);
    },
  );

  // Found by this spec: a nudged tab joined its own fetch in flight, which may have been answered before
  // the change, and showed the old balance until its next fetch; a nudge now starts a fresh fetch.
  it('a tab whose fetch was answered before the top-up, and heard the nudge before that answer, ends on the top-up', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const [a, c] = [browser.open({ sync: true }), browser.open({ sync: true })];
    await Promise.all([a.billing.getUsage(), c.billing.getUsage()]);
    await browser.settle();
    browser.hold = { at: 'answers', page: c };
    void c.billing.getUsage().catch(() => undefined); // the backend reads 10; the answer is still on the wire
    await browser.settle();
    browser.backend.quota.balance = 50;
    await a.billing.getUsage(); // A sees 50 and nudges C
    await browser.settle();
    browser.release();
    await browser.settle();
    expect(c.billing.getCachedUsage()?.creditsBalance).toBe(50);
  });

  it("a tab's interval refetch that changed its quota nudges the other tab, which fetches its own", async () => {
    browser = new Browser({ freeRemaining: 0, balance: 40, creditsPerUse: 10 });
    const polling = browser.open({ sync: true, client: { refetch: refetchOn({ intervalMs: 5_000 }) } });
    const other = browser.open({ sync: true });
    await Promise.all([polling.billing.getUsage(), other.billing.getUsage()]);
    await browser.settle();
    const seen = balances(other);
    browser.sent.splice(0);
    browser.backend.quota.balance = 90; // a top-up made elsewhere: only the poll can learn it
    await browser.advance(5_000);
    expect(seen).toEqual([40, 90]);
    expect([browser.count(PATH.count, polling), browser.count(PATH.count, other)]).toEqual([1, 1]);
    expect(browser.sent).toHaveLength(4);
    // An unchanged poll nudges nobody.
    await browser.advance(5_000);
    expect([browser.count(PATH.count, polling), browser.count(PATH.count, other)]).toEqual([2, 1]);
  });
});

describe('tabSync: what crosses the channel', () => {
  it('malformed messages change nothing, and no message carries a header value or token', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const client = { headers: { Authorization: 'Bearer secret-token', 'X-Canary': 'canary-7' } };
    const [a, b] = [browser.open({ sync: true, client }), browser.open({ sync: true, client })];
    const other = browser.listen();
    await Promise.all([a.billing.getUsage(), b.billing.getUsage()]);
    await browser.settle();
    const before = { check: b.billing.check(), usage: b.billing.getCachedUsage(), sent: browser.sent.length };
    const wall = browser.wallNow();
    for (const junk of [
      null,
      'changed',
      42,
      [],
      {},
      { kind: 'period' },
      { kind: 'period', c: wall, e: wall + 30_000 },
      { kind: 'period', id: 'x.1', left: String(30_000), at: wall },
      { kind: 'period', id: 'x.1', left: Infinity, at: wall },
      { kind: 'period', id: 42, left: 30_000, at: wall },
      { kind: 'period', id: 'x:1', left: 30_000, at: wall },
      { kind: 'period', id: 'x'.repeat(101), left: 30_000, at: wall },
      { kind: 'ended' },
      { kind: 'Changed' },
      { kind: 'usage', quota: { freeRemaining: 9, creditsBalance: 999 } },
      { v: 1, kind: 'hello', from: 'ghost' },
      { kind: 'sending', id: 'x-1' },
      { kind: 'sending', id: '', page: 'ghost' },
      { kind: 'sending', id: 'x'.repeat(256), page: 'ghost' },
      { kind: 'sending', id: 'x-1', page: 'gh:ost' },
      { kind: 'sending', id: 42, page: 'ghost' },
      { kind: 'sent' },
      { kind: 'sent', id: null },
    ]) {
      other.post(junk);
    }
    await browser.settle();
    expect({ check: b.billing.check(), usage: b.billing.getCachedUsage(), sent: browser.sent.length }).toEqual(before);

    await a.billing.consume();
    await browser.settle();
    const posted = other.messages;
    expect(posted.length).toBeGreaterThan(0);
    expect(JSON.stringify(posted)).not.toMatch(/secret-token|canary-7|Bearer/);
    for (const message of posted)
      expect(['kind', 'id', 'left', 'at', 'q', 'page']).toEqual(expect.arrayContaining(Object.keys(message as object)));
  });
});
