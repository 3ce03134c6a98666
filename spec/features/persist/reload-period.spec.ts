import { firstValueFrom } from 'rxjs';
import { Browser, type Page } from '../../helpers/browser';
import { PATH } from '../../helpers/client-fixture';
import { MemoryStorage } from '../../helpers/memory-storage';

// Issue 16, item 3: the free period across reloads, whatever the wall clock does.
let browser: Browser;

/** A fresh browser with one tab on its own per-tab storage, just charged: its free period runs from `chargedAt`. */
async function chargedTab() {
  browser = new Browser();
  const storage = new MemoryStorage();
  const first = browser.open({ storage, perTab: true });
  await first.billing.consume();
  return { first, storage, chargedAt: browser.clock.now() };
}

afterEach(() => browser.close());

const PERIODS = 'unified-billing:generator_poster:periods';
const seconds = (page: Page) => firstValueFrom(page.billing.freePeriodRemaining$);

/** A reload of a tab on its own storage: the page dies, a new one starts on what it left. */
function reload(page: Page, storage: MemoryStorage): Page {
  browser.kill(page);
  return browser.open({ storage, perTab: true });
}

describe('reloadSafe: the free period', () => {
  it('a reload 10 s into the period keeps the 20 s left, and a consume in it sends nothing', async () => {
    const { first, storage } = await chargedTab();
    await browser.advance(10_000);
    const second = reload(first, storage);
    expect(second.billing.check()).toEqual({ canProceed: true, reason: 'free_period' });
    expect(await seconds(second)).toBe(20);
    await second.billing.consume();
    expect(browser.count(PATH.consume)).toBe(1);
    await browser.advance(20_000);
    expect(second.billing.check().reason).not.toBe('free_period');
    // The dead page's entry stays (only its own page removes it) but gives nothing any more.
    expect(await seconds(reload(second, storage))).toBe(0);
  });

  it("two pages on one localStorage without tabSync: A's period ending leaves B's, and B reloading 21 s into its own is free", async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const [a, b] = [browser.open({ storage }), browser.open({ storage })];
    await a.billing.consume();
    await browser.advance(9_500);
    await b.billing.consume(); // B's last beat before it dies is at 29.5 s, before A's period ends
    await browser.advance(20_900); // A's period ended at 30 s; B is 20.9 s into its own
    expect(a.billing.check().reason).not.toBe('free_period');
    browser.kill(b);
    const reloaded = browser.open({ storage });
    expect(reloaded.billing.check().reason).toBe('free_period');
    expect(await seconds(reloaded)).toBe(10);
    await reloaded.billing.consume();
    expect(browser.count(PATH.consume)).toBe(2);
  });

  it('a page that died without a word (a crash), then the wall clock set back a minute: the next page is not free', async () => {
    const { first, storage } = await chargedTab();
    await browser.advance(5_000);
    browser.wallOffset -= 60_000;
    const second = reload(first, storage);
    expect(second.billing.check().reason).not.toBe('free_period');
    await second.billing.consume();
    expect(browser.count(PATH.consume)).toBe(2);
  });

  it('the clock stepped back 3 s at 5 s into the period, then a reload at 10 s: it ends 30 s after the charge, not 33', async () => {
    const { first, storage } = await chargedTab();
    await browser.advance(5_000);
    browser.wallOffset -= 3_000;
    await browser.advance(5_000);
    const second = reload(first, storage);
    await browser.advance(19_999);
    expect(second.billing.check().reason).toBe('free_period');
    await browser.advance(1);
    expect(second.billing.check().reason).not.toBe('free_period');
  });

  it.each([
    ['an hour left (tampered): clamped to 30 s', (wall: number) => ({ c: wall, w: wall, l: 3_600_000 }), 30],
    [
      'charged and beaten an hour ahead (the clock stepped back since): none',
      (wall: number) => ({ c: wall + 3_600_000, w: wall + 3_600_000, l: 30_000 }),
      0,
    ],
    [
      '20 s left written 10 s ago while its page went away, read by a page not reloaded: 10 s, by the wall clock',
      (wall: number) => ({ w: wall - 10_000, l: 20_000, m: 5, k: 'another-document', h: 1 }),
      10,
    ],
    ['garbage: none', () => 'not-a-period', 0],
  ])('a stored period with %s', async (_label, stored, left) => {
    browser = new Browser();
    const storage = new MemoryStorage();
    storage.items.set(PERIODS, JSON.stringify({ 'a-page-gone': stored(browser.wallNow()) }));
    const page = browser.open({ storage });
    expect(await seconds(page)).toBe(left);
  });

  it('keys follow the scope option, so two users of one browser do not share a period', async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const alice = browser.open({ storage, client: { scope: 'alice' } });
    await alice.billing.consume();
    expect([...storage.items.keys()]).toEqual(['unified-billing:alice:periods']);
    const bob = browser.open({ storage, client: { scope: 'bob' } });
    expect(bob.billing.check().reason).not.toBe('free_period');
    browser.kill(alice);
    expect(browser.open({ storage, client: { scope: 'alice' } }).billing.check().reason).toBe('free_period');
  });
});

// Issue 23, item 7: clock steps cost neither side. The time left is stored as measured on the page's
// monotonic clock, written last at pagehide; a reload dates it by its own age (its navigation started
// before the old page went away), so no wall-clock step between the last beat and the restore matters.
describe('reloadSafe(sessionStorage): a reload after the wall clock stepped', () => {
  const STEPS: ReadonlyArray<[string, number]> = [
    ['back 3 s', -3_000],
    ['back 1 h', -3_600_000],
    ['forward 3 s', 3_000],
    ['forward 1 h', 3_600_000],
  ];
  const WHEN: ReadonlyArray<[string, boolean]> = [
    ['between the last beat and the reload', false],
    ['between the charge and the last beats', true],
  ];

  describe.each(WHEN)('the step %s', (_when, early) => {
    it.each(STEPS)(
      "%s: the reloaded page keeps the time actually left, ending within 1 s before the charge's 30 s",
      async (_label, step) => {
        const { first, chargedAt } = await chargedTab();
        if (early) {
          await browser.advance(2_000);
          browser.wallOffset += step;
        }
        // 10.4 s in: the last beat is 400 ms old when the reload starts.
        await browser.advance(early ? 8_400 : 10_400);
        if (!early) browser.wallOffset += step;
        const second = browser.reload(first, { navigationMs: 300 });
        expect(second.billing.check().reason).toBe('free_period');
        // 1 s short at most: still free 29 s after the charge.
        await browser.advance(chargedAt + 29_000 - browser.clock.now());
        expect(second.billing.check().reason).toBe('free_period');
        await second.billing.consume();
        expect(browser.count(PATH.consume)).toBe(1);
        // Never long: over 30 s after the charge, on the monotonic timeline.
        await browser.advance(chargedAt + 30_000 - browser.clock.now());
        expect(second.billing.check().reason).not.toBe('free_period');
        await second.billing.consume();
        expect(browser.count(PATH.consume)).toBe(2);
      },
    );
  });

  it('reloaded twice, with a step back before each: the second reload still keeps it (each page stores what it restored)', async () => {
    const { first, chargedAt } = await chargedTab();
    await browser.advance(5_000);
    browser.wallOffset -= 3_600_000;
    const second = browser.reload(first, { navigationMs: 200 });
    await browser.advance(5_000);
    browser.wallOffset -= 3_000;
    const third = browser.reload(second, { navigationMs: 200 });
    await browser.advance(chargedAt + 29_000 - browser.clock.now());
    expect(third.billing.check().reason).toBe('free_period');
    await browser.advance(1_000);
    expect(third.billing.check().reason).not.toBe('free_period');
  });

  it('a slow reload (the new page started 4 s before the old one went away) is short by those 4 s, never long', async () => {
    const { first, chargedAt } = await chargedTab();
    await browser.advance(10_000);
    browser.wallOffset -= 60_000;
    const second = browser.reload(first, { navigationMs: 4_000 });
    await browser.advance(chargedAt + 25_999 - browser.clock.now());
    expect(second.billing.check().reason).toBe('free_period');
    await browser.advance(1);
    expect(second.billing.check().reason).not.toBe('free_period');
  });

  it('what a page wrote going away is dated by age only by the reload that follows it, not by a page reached later', async () => {
    const { first, storage } = await chargedTab();
    await browser.advance(5_000);
    // The tab went to another site for 10 minutes, and came back by a link: not a reload.
    browser.hide(first);
    browser.kill(first);
    await browser.advance(600_000);
    const back = browser.open({ storage, perTab: true, navigation: 'navigate', startedMsAgo: 300 });
    expect(back.billing.check().reason).not.toBe('free_period');
  });

  it.each([
    ['back', -3_600_000],
    ['forward', 3_600_000],
  ])(
    'a new client of the same page (dispose, then create: a user switch) after a step %s of 1 h dates the period on the shared clock',
    async (_label, step) => {
      const { first, storage, chargedAt } = await chargedTab();
      await browser.advance(10_500);
      browser.wallOffset += step;
      first.billing.dispose();
      await browser.advance(2_000);
      const next = browser.open({ storage, perTab: true, client: { scheduler: first.scheduler } });
      await browser.advance(chargedAt + 29_999 - browser.clock.now());
      expect(next.billing.check().reason).toBe('free_period');
      await browser.advance(1);
      expect(next.billing.check().reason).not.toBe('free_period');
    },
  );
});
