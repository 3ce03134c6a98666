import { billingEvents } from '../../../lib/features/events';
import type { BillingEvent } from '../../../lib/shared/billing-event';
import type { RecoveredConsume } from '../../../lib/shared/feature-types';
import { Browser, type Page, type PageOptions } from '../../helpers/browser';
import { MemoryStorage } from '../../helpers/memory-storage';

// Contract decision 13: an unanswered POST is reported once among the pages that can talk, whichever road
// finds it (a reload's journal, or the consume-lock holder re-sending a dead tab's POST). Two tabs with
// tabSync() and reloadSafe(), on the fake Web Locks and channel, against the reference backend.
let browser: Browser;
afterEach(() => browser.close());

// How long a holder waits for a gone page's `sent` before sending its POST again (dead-posts.ts).
const GRACE_MS = 500;
const CHARGED = { ok: true, result: { freeRemaining: 2, isCredit: false, isBlacklisted: false } };

const reports: Array<{ readonly page: number; readonly item: RecoveredConsume }> = [];
const events: BillingEvent[] = [];
beforeEach(() => {
  reports.length = 0;
  events.length = 0;
});

/** Opens a page with both features, its `recovered$` and `consume:recovered` events collected. */
function open(options: PageOptions): Page {
  const client = { events: billingEvents({ onEvent: (event) => events.push(event) }) };
  const page = browser.open({ sync: true, client, ...options });
  page.billing.recovered$.subscribe((item) => reports.push({ page: page.index, item }));
  return page;
}

/** A's consume `a-1` reaches the backend, which charges it; A dies before the answer. */
async function aDiesAfterTheCharge(a: Page): Promise<void> {
  browser.hold = { at: 'answers', page: a };
  void a.billing.consume({ externalId: 'a-1' }).catch(() => undefined);
  await browser.settle();
  browser.kill(a);
  await browser.settle();
}

const recoveredEvents = () => events.filter((event) => event.type === 'consume:recovered');

describe('a dead tab charge is reported once across pages', () => {
  it('per-tab storage: A is reloaded after B re-sent its POST, and the reloaded A does not report it again', async () => {
    browser = new Browser();
    const storageOfA = new MemoryStorage();
    const a = open({ storage: storageOfA, perTab: true });
    const b = open({ storage: new MemoryStorage(), perTab: true });
    await Promise.all([a, b].map((tab) => tab.billing.getUsage()));
    await browser.settle();
    await aDiesAfterTheCharge(a);
    // B's click finds A's POST unanswered and A gone: B sends it again, learns the charge, and reports it.
    const click = b.billing.consume({ externalId: 'b-1' });
    await browser.advance(GRACE_MS);
    await browser.advance(GRACE_MS);
    await expect(click).resolves.toMatchObject({ isCredit: false });
    expect(reports).toEqual([{ page: b.index, item: { externalId: 'a-1', outcome: CHARGED } }]);
    // A is reloaded on its own storage, whose journal still names a-1.
    open({ storage: storageOfA, perTab: true, navigation: 'reload', startedMsAgo: 300 });
    await browser.advance(GRACE_MS);
    expect(browser.backend.charged).toEqual(['a-1']);
    expect(reports).toEqual([{ page: b.index, item: { externalId: 'a-1', outcome: CHARGED } }]);
    expect(recoveredEvents()).toHaveLength(1);
    // Nothing of a-1 is left to replay at the next reload either.
    expect(storageOfA.items.get('unified-billing:generator_poster:journal')).toBeUndefined();
  });

  it('shared storage: A is reloaded in the same instant as B clicks, and only one of them reports it', async () => {
    browser = new Browser();
    const shared = new MemoryStorage();
    const a = open({ storage: shared });
    const b = open({ storage: shared });
    await Promise.all([a, b].map((tab) => tab.billing.getUsage()));
    await browser.settle();
    await aDiesAfterTheCharge(a);
    const reloaded = open({ storage: shared, navigation: 'reload', startedMsAgo: 300 });
    const click = b.billing.consume({ externalId: 'b-1' });
    await browser.advance(GRACE_MS);
    await browser.advance(GRACE_MS);
    await expect(click).resolves.toMatchObject({ isCredit: false });
    expect(browser.backend.charged).toEqual(['a-1']);
    expect(reports.map(({ item }) => item)).toEqual([{ externalId: 'a-1', outcome: CHARGED }]);
    expect([b.index, reloaded.index]).toContain(reports[0]?.page);
    expect(recoveredEvents()).toHaveLength(1);
    expect(shared.items.get('unified-billing:generator_poster:journal')).toBeUndefined();
  });
});

describe("the start's replays when the consume lock does not come", () => {
  it('past the lock wait (timeoutMs), the reloaded page asks again, and replays and reports once it holds the lock', async () => {
    browser = new Browser();
    const storageOfA = new MemoryStorage();
    const client = { timeoutMs: 5_000 };
    const a = open({ storage: storageOfA, perTab: true, client });
    await a.billing.getUsage();
    await browser.settle();
    await aDiesAfterTheCharge(a);
    // Another page holds the consume lock for a while (a tab frozen in a long task).
    let resume = (): void => undefined;
    const frozen = new Promise<void>((resolve) => (resume = resolve));
    void browser.locks.forTab(99).request('unified-billing:generator_poster:consume', {}, () => frozen);
    await browser.settle();
    const reloaded = open({ storage: storageOfA, perTab: true, navigation: 'reload', startedMsAgo: 300, client });
    await browser.advance(12_000);
    expect(reports).toEqual([]);
    resume();
    await browser.advance(1_000);
    expect(reports).toEqual([{ page: reloaded.index, item: { externalId: 'a-1', outcome: CHARGED } }]);
    expect(browser.backend.charged).toEqual(['a-1']);
  });
});
