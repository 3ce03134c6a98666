import { lastValueFrom, toArray } from 'rxjs';
import { billingEvents } from '../../../lib/features/events';
import type { BillingEvent } from '../../../lib/shared/billing-event';
import type { RecoveredConsume } from '../../../lib/shared/feature-types';
import { Browser, type Page, type PageOptions } from '../../helpers/browser';
import { PATH } from '../../helpers/client-fixture';
import { MemoryStorage, quotaError } from '../../helpers/memory-storage';

// Issue 16, item 2: a replay never pays for what a caller was told failed (the journal's five rules).
let browser: Browser;
afterEach(() => {
  browser.close();
  jest.restoreAllMocks();
});

const JOURNAL = 'unified-billing:generator_poster:journal';
const CHARGED = { ok: true, result: { freeRemaining: 2, isCredit: false, isBlacklisted: false } };
const posts = () => browser.sent.filter((s) => s.path === PATH.consume).map((s) => `${s.page} ${s.externalId}`);

/** Opens a page and collects what its `recovered$` tells, once the browser has settled. */
async function opened(options: PageOptions): Promise<{ page: Page; recovered: RecoveredConsume[] }> {
  const page = browser.open(options);
  const all = lastValueFrom(page.billing.recovered$.pipe(toArray()));
  await browser.settle();
  return { page, recovered: await all };
}

/** A copy of a tab's storage, as "Duplicate tab" and `window.open` give the new tab a copy of `sessionStorage`. */
function copyOf(storage: MemoryStorage): MemoryStorage {
  const copy = new MemoryStorage();
  storage.items.forEach((value, key) => copy.items.set(key, value));
  return copy;
}

/** A page (on its own storage) that dies while its consume waits `at` the backend. */
async function diedWaiting(at: 'requests' | 'answers', externalId: string, storage = new MemoryStorage()) {
  const page = browser.open({ storage, perTab: true });
  browser.hold = { at, page };
  void page.billing.consume({ externalId }).catch(() => undefined);
  await browser.settle();
  browser.kill(page);
  browser.release();
  await browser.settle();
  return storage;
}

describe('reloadSafe: a consume cut by a reload', () => {
  it('charged but unanswered: the next page replays the same external_id, charged once, told on recovered$', async () => {
    browser = new Browser();
    const storage = await diedWaiting('answers', 'export-7');
    expect(browser.backend.charged).toEqual(['export-7']);
    const { page, recovered } = await opened({ storage, perTab: true });
    expect(recovered).toEqual([{ externalId: 'export-7', outcome: CHARGED }]);
    expect(posts()).toEqual(['0 export-7', '1 export-7']);
    expect(browser.backend.charged).toEqual(['export-7']);
    expect(page.billing.check().reason).toBe('free_period');
    expect(storage.items.has(JOURNAL)).toBe(false);
  });

  it('the replay is told once more, as a consume:recovered event, with the events feature on (issue 30)', async () => {
    browser = new Browser();
    const storage = await diedWaiting('answers', 'export-9');
    const events: BillingEvent[] = [];
    const client = { events: billingEvents({ onEvent: (event) => events.push(event) }) };
    const { recovered } = await opened({ storage, perTab: true, client });
    expect(recovered).toEqual([{ externalId: 'export-9', outcome: CHARGED }]);
    expect(events.filter((event) => event.type === 'consume:recovered')).toEqual([
      expect.objectContaining({ externalId: 'export-9', outcome: CHARGED }),
    ]);
  });

  it('with tabSync too: the same one page lock, the same replay, and recovered$ stays open for later re-sends', async () => {
    browser = new Browser();
    const storage = await diedWaiting('answers', 'export-10');
    const page = browser.open({ storage, perTab: true, sync: true });
    const seen: RecoveredConsume[] = [];
    let completed = false;
    page.billing.recovered$.subscribe({ next: (item) => seen.push(item), complete: () => (completed = true) });
    await browser.settle();
    expect(seen).toEqual([{ externalId: 'export-10', outcome: CHARGED }]);
    expect(browser.locks.ownedBy(page.index).held.filter((name) => name.includes(':page:'))).toHaveLength(1);
    expect(completed).toBe(false);
    page.billing.dispose();
    expect(completed).toBe(true);
  });

  it('cut before the backend saw it: the replay makes the one charge', async () => {
    browser = new Browser();
    const storage = await diedWaiting('requests', 'export-8');
    expect(browser.backend.charged).toEqual([]);
    const { recovered } = await opened({ storage, perTab: true });
    expect(recovered).toEqual([{ externalId: 'export-8', outcome: CHARGED }]);
    expect(browser.backend.charged).toEqual(['export-8']);
  });

  it('a replayed refusal is told, and the journal cleared', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 0 });
    const storage = await diedWaiting('answers', 'export-9');
    const { recovered } = await opened({ storage, perTab: true });
    expect(recovered).toEqual([{ externalId: 'export-9', outcome: { ok: false, error: expect.anything() } }]);
    expect(recovered[0]?.outcome).toMatchObject({ error: { code: 'insufficient_credits', externalId: 'export-9' } });
    expect(storage.items.has(JOURNAL)).toBe(false);
  });

  it('the entry is written before the POST leaves', async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    let atSend: unknown = null;
    browser.backend.pace = async (_, answer) => {
      if (answer === undefined) atSend = JSON.parse(storage.items.get(JOURNAL) ?? 'null');
    };
    const page = browser.open({ storage, perTab: true });
    await page.billing.consume({ externalId: 'e-2' });
    expect(atSend).toEqual([{ id: 'e-2', owner: expect.any(String), at: browser.wallNow() }]);
    expect(storage.items.has(JOURNAL)).toBe(false);
  });

  it('dispose() with a consume in flight clears its entry: the next client replays and pays nothing', async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const first = browser.open({ storage, perTab: true });
    browser.hold = { at: 'requests', page: first };
    const cut = first.billing.consume({ externalId: 'gone-1' });
    await browser.settle();
    expect(storage.items.has(JOURNAL)).toBe(true);
    first.billing.dispose();
    await expect(cut).rejects.toMatchObject({ code: 'disposed', externalId: 'gone-1' });
    expect(storage.items.has(JOURNAL)).toBe(false);
    browser.release();
    const { recovered } = await opened({ storage, perTab: true });
    expect(recovered).toEqual([]);
    expect(posts()).toEqual(['0 gone-1']);
    expect(browser.backend.charged).toEqual([]);
  });

  it('without Web Locks nothing is journaled (a missed notification), and the period is still restored', async () => {
    browser = new Browser({}, { webLocks: false });
    const storage = await diedWaiting('answers', 'export-10');
    expect(storage.items.has(JOURNAL)).toBe(false);
    const { page, recovered } = await opened({ storage, perTab: true });
    expect(recovered).toEqual([]);
    expect(posts()).toEqual(['0 export-10']);
    await page.billing.consume({ externalId: 'export-11' });
    await browser.advance(10_000);
    browser.kill(page);
    const { page: reloaded } = await opened({ storage, perTab: true });
    expect(reloaded.billing.check().reason).toBe('free_period');
  });
});

describe('reloadSafe: a duplicated tab (a copy of a live tab’s sessionStorage)', () => {
  it("drops the opener's entry and never replays it; the opener finishes its own consume", async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const opener = browser.open({ storage, perTab: true });
    browser.hold = { at: 'answers', page: opener };
    const pending = opener.billing.consume({ externalId: 'export-7' });
    await browser.settle();
    const copied = copyOf(storage);
    const { recovered } = await opened({ storage: copied, perTab: true });
    expect(recovered).toEqual([]);
    expect(copied.items.has(JOURNAL)).toBe(false);
    browser.release();
    await expect(pending).resolves.toMatchObject({ isCredit: false });
    expect(posts()).toEqual(['0 export-7']);
  });

  // The model's seed 1693953956: two copies of a dead tab's storage, each naming its POST, start together.
  // They share no storage and no consume lock, only the report mark: one replays and reports, the other drops it.
  it("two copies of a dead tab's storage start together: one of them replays and reports its POST", async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const opener = browser.open({ storage, perTab: true });
    browser.hold = { at: 'answers', page: opener };
    void opener.billing.consume({ externalId: 'export-7' }).catch(() => undefined);
    await browser.settle();
    const copies = [copyOf(storage), copyOf(storage)];
    browser.kill(opener);
    browser.release();
    const pages = copies.map((copied) => browser.open({ storage: copied, perTab: true }));
    const all = Promise.all(pages.map((page) => lastValueFrom(page.billing.recovered$.pipe(toArray()))));
    await browser.settle();
    expect((await all).flat()).toEqual([{ externalId: 'export-7', outcome: CHARGED }]);
    expect(browser.backend.charged).toEqual(['export-7']);
    // The one that dropped it keeps no entry either: nothing is left to replay at a later reload.
    expect(copies.map((copied) => copied.items.has(JOURNAL))).toEqual([false, false]);
  });

  // The seed (MODEL_SEED=29370206): the user was told the export failed, and paid for it.
  it.each([
    ['after its start-up check answered', true],
    ['before its start-up check answered', false],
  ])(
    'duplicated while a consume is in flight, the copy reloads (%s), the opener is disposed: nothing is charged',
    async (_label, checked) => {
      browser = new Browser();
      const storage = new MemoryStorage();
      const opener = browser.open({ storage, perTab: true });
      browser.hold = { at: 'requests', page: opener };
      const cut = opener.billing.consume({ externalId: 'export-7' }).catch((error: unknown) => error);
      await browser.settle();
      const copied = copyOf(storage);
      const copy = browser.open({ storage: copied, perTab: true });
      if (checked) await browser.settle();
      browser.kill(copy);
      opener.billing.dispose();
      await expect(cut).resolves.toMatchObject({ code: 'disposed', externalId: 'export-7' });
      browser.release();
      const { recovered } = await opened({ storage: copied, perTab: true });
      expect(recovered).toEqual([]);
      expect(browser.backend.charged).toEqual([]);
      expect(posts()).toEqual(['0 export-7']);
    },
  );
});

describe('reloadSafe: one storage shared by pages (localStorage)', () => {
  it("a gone page's entry is replayed by exactly one of two pages starting together", async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const gone = browser.open({ storage });
    browser.hold = { at: 'answers', page: gone };
    void gone.billing.consume({ externalId: 'left-1' }).catch(() => undefined);
    await browser.settle();
    browser.kill(gone);
    browser.release();
    const [p, q] = [browser.open({ storage }), browser.open({ storage })];
    const all = Promise.all([p, q].map((page) => lastValueFrom(page.billing.recovered$.pipe(toArray()))));
    await browser.settle();
    expect((await all).flat()).toEqual([{ externalId: 'left-1', outcome: CHARGED }]);
    expect(posts()).toHaveLength(2);
    expect(browser.backend.charged).toEqual(['left-1']);
    expect(storage.items.has(JOURNAL)).toBe(false);
  });

  it("a live page's entry is replayed by none", async () => {
    browser = new Browser();
    const storage = new MemoryStorage();
    const live = browser.open({ storage });
    browser.hold = { at: 'answers', page: live };
    const pending = live.billing.consume({ externalId: 'live-1' });
    await browser.settle();
    const { recovered } = await opened({ storage });
    expect(recovered).toEqual([]);
    browser.release();
    await expect(pending).resolves.toMatchObject({ isCredit: false });
    expect(posts()).toEqual(['0 live-1']);
  });
});

describe('reloadSafe: a storage that starts refusing writes', () => {
  it('mid-consume: no stale entry is left, so the next load replays nothing', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    browser = new Browser();
    const storage = new MemoryStorage();
    const page = browser.open({ storage, perTab: true });
    browser.hold = { at: 'answers', page };
    const pending = page.billing.consume({ externalId: 'full-1' });
    await browser.settle();
    expect(storage.items.has(JOURNAL)).toBe(true);
    storage.failWrites = quotaError();
    browser.release();
    await expect(pending).resolves.toMatchObject({ isCredit: false });
    expect(storage.items.has(JOURNAL)).toBe(false);
    browser.kill(page);
    storage.failWrites = null;
    const { recovered } = await opened({ storage, perTab: true });
    expect(recovered).toEqual([]);
    expect(posts()).toEqual(['0 full-1']);
  });

  it('in a shared storage: a write that fails leaves no older entry behind, so no page replays what its caller heard', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    browser = new Browser();
    const storage = new MemoryStorage();
    const [p, q] = [browser.open({ storage }), browser.open({ storage })];
    browser.hold = { at: 'answers' };
    const both = Promise.all([p.billing.consume({ externalId: 'p-1' }), q.billing.consume({ externalId: 'q-1' })]);
    await browser.settle();
    expect(JSON.parse(storage.items.get(JOURNAL) ?? '[]')).toHaveLength(2);
    storage.failWrites = quotaError();
    browser.release();
    await both; // both callers heard their outcome
    [p, q].forEach((page) => browser.kill(page));
    storage.failWrites = null;
    const { recovered } = await opened({ storage });
    expect(recovered).toEqual([]);
    expect(posts()).toHaveLength(2);
  });

  it('while replaying: the replay is told once, and the load after it replays nothing', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    browser = new Browser();
    const storage = await diedWaiting('answers', 'full-2');
    storage.failWrites = quotaError();
    const first = await opened({ storage, perTab: true });
    expect(first.recovered).toEqual([{ externalId: 'full-2', outcome: CHARGED }]);
    browser.kill(first.page);
    storage.failWrites = null;
    const second = await opened({ storage, perTab: true });
    expect(second.recovered).toEqual([]);
    expect(browser.backend.charged).toEqual(['full-2']);
  });
});
