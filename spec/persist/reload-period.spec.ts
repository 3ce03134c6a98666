import { firstValueFrom } from 'rxjs';
import { Browser, type Page } from '../helpers/browser';
import { PATH } from '../helpers/client-fixture';
import { MemoryStorage } from '../helpers/memory-storage';

// Issue 16, item 3: the free period across reloads, whatever the wall clock does.
let browser: Browser;
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
    browser = new Browser();
    const storage = new MemoryStorage();
    const first = browser.open({ storage, perTab: true });
    await first.billing.consume();
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

  it('a page started after the wall clock was set back a minute is not free', async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const first = browser.open({ storage, perTab: true });
    await first.billing.consume();
    await browser.advance(5_000);
    browser.wallOffset -= 60_000;
    const second = reload(first, storage);
    expect(second.billing.check().reason).not.toBe('free_period');
    await second.billing.consume();
    expect(browser.count(PATH.consume)).toBe(2);
  });

  it('the clock stepped back 3 s at 5 s into the period, then a reload at 10 s: it ends 30 s after the charge, not 33', async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const first = browser.open({ storage, perTab: true });
    await first.billing.consume();
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
      'an hour left on a charge 10 s ago: 20 s, 30 s after the charge',
      (wall: number) => ({ c: wall - 10_000, w: wall, l: 3_600_000 }),
      20,
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
