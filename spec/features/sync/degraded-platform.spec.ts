import { config, firstValueFrom } from 'rxjs';
import { Browser, type Page } from '../../helpers/browser';
import { PATH } from '../../helpers/client-fixture';
import type { LocksFlaws } from '../../helpers/fake-locks';

// Issue 23, points 4, 5 and 7: a missing or broken BroadcastChannel or Web Locks changes no charge where
// the platform lets us keep it; every wait for the consume lock is bounded; a clock step costs no side.
let browser: Browser;
let warn: jest.SpyInstance;
const unhandled: unknown[] = [];
const previous = config.onUnhandledError;
beforeEach(() => {
  unhandled.length = 0;
  config.onUnhandledError = (error) => unhandled.push(error);
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  browser.close();
  config.onUnhandledError = previous;
  warn.mockRestore();
});

const securityError = () => Object.assign(new Error('The operation is insecure.'), { name: 'SecurityError' });

/** Two tabs click at once: how many POSTs went out, and what each caller heard. */
async function clickAtOnce(pages: readonly Page[]): Promise<{ posts: number; ok: boolean[] }> {
  const outcomes = Promise.all(
    pages.map((page, i) =>
      page.billing.consume({ externalId: `click-${i}` }).then(
        () => true,
        () => false,
      ),
    ),
  );
  await browser.settle();
  return { posts: browser.count(PATH.consume), ok: await outcomes };
}

describe('a lock manager whose request() throws', () => {
  it('the consume bills as without Web Locks, at once: one POST, no wait for timeoutMs', async () => {
    browser = new Browser({}, { locks: { requestThrows: true } });
    const page = browser.open({ sync: true });
    const result = page.billing.consume();
    await browser.settle();
    expect(browser.count(PATH.consume)).toBe(1);
    await expect(result).resolves.toMatchObject({ isCredit: false, isBlacklisted: false });
    expect(unhandled).toEqual([]);
  });
});

// Issue 30: a tab learns a running period one way, its owner's `period` message; without a channel, each tab
// bills on its own (two clicks at once in two tabs are two charges, of two operations), as docs/recipes/cross-tab.md says.
describe('a BroadcastChannel that throws means "no channel": each tab bills on its own, nothing unhandled', () => {
  it('its constructor throws (a SecurityError): each click charged once, one warning naming the error', async () => {
    browser = new Browser();
    browser.hub.openThrows = securityError();
    const pages = [browser.open({ sync: true }), browser.open({ sync: true })];
    expect(await clickAtOnce(pages)).toEqual({ posts: 2, ok: [true, true] });
    expect(browser.backend.charged).toEqual(['click-0', 'click-1']);
    expect(unhandled).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(2); // once per client
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/SecurityError/);
  });

  it('its postMessage throws: each click charged once, one warning per client naming the error', async () => {
    browser = new Browser();
    const pages = [browser.open({ sync: true }), browser.open({ sync: true })];
    await browser.settle();
    browser.hub.postThrows = new TypeError('cannot post');
    expect(await clickAtOnce(pages)).toEqual({ posts: 2, ok: [true, true] });
    // Each tab still knows its own period: its next click is free.
    await pages[1]?.billing.consume();
    expect(browser.count(PATH.consume)).toBe(2);
    expect(unhandled).toEqual([]);
    expect(warn.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(warn.mock.calls.length).toBeLessThanOrEqual(2);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/TypeError/);
  });

  it('none at all: each click charged once, no warning', async () => {
    browser = new Browser();
    delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
    const pages = [browser.open({ sync: true }), browser.open({ sync: true })];
    expect(await clickAtOnce(pages)).toEqual({ posts: 2, ok: [true, true] });
    expect(warn).not.toHaveBeenCalled();
  });
});

// query() is not used (issue 30): a broken one changes nothing.
describe('Web Locks with a broken query(): clicks in every tab at once still make one charge', () => {
  it.each<[string, LocksFlaws]>([
    ['missing', { query: 'missing' }],
    ['throwing', { query: 'throws' }],
    ['rejecting', { query: 'rejects' }],
    ['answering junk entries (null, a non-string name) ahead of the real ones', { query: 'junk' }],
  ])('query() %s', async (_label, locks) => {
    browser = new Browser({}, { locks });
    const pages = [0, 1, 2].map(() => browser.open({ sync: true }));
    await browser.settle();
    expect(await clickAtOnce(pages)).toEqual({ posts: 1, ok: [true, true, true] });
    expect(browser.backend.charged).toEqual(['click-0']);
    expect(unhandled).toEqual([]);
  });

  it('query() missing and no channel: the platform cannot tell the period, so each tab bills on its own', async () => {
    browser = new Browser({}, { locks: { query: 'missing' } });
    browser.hub.openThrows = securityError();
    const pages = [browser.open({ sync: true }), browser.open({ sync: true })];
    // At most one charge per tab, each id once.
    expect(await clickAtOnce(pages)).toEqual({ posts: 2, ok: [true, true] });
    expect(browser.backend.charged).toEqual(['click-0', 'click-1']);
  });
});

describe('the wait for the consume lock is bounded', () => {
  const hung = () => {
    browser = new Browser({}, { locks: { neverGrant: true } });
    return browser.open({ sync: true, client: { timeoutMs: 5_000 } });
  };
  // The consume lock's requests (the hung manager also keeps the page's own lock, held for its life, asked for).
  const consumeWaits = () => browser.locks.pendingNames().filter((name) => name.endsWith(':consume')).length;

  it('a lock never granted: the consume rejects `timeout` naming the lock wait after timeoutMs, sends nothing, withdraws its request', async () => {
    const page = hung();
    const outcome = page.billing.consume({ externalId: 'stuck' }).catch((error: unknown) => error);
    await browser.settle();
    await browser.advance(4_999);
    expect(consumeWaits()).toBe(1);
    await browser.advance(1);
    const error = (await outcome) as { code?: string; message?: string };
    expect(error).toMatchObject({ code: 'timeout' });
    expect(error.message).toMatch(/lock/);
    expect(browser.count(PATH.consume)).toBe(0);
    expect(browser.backend.charged).toEqual([]);
    expect(consumeWaits()).toBe(0);
  });

  it('another tab holding the lock past timeoutMs (its POST held): `timeout`, nothing sent; the next consume is free from its charge', async () => {
    browser = new Browser();
    // A's own POST may take its 60 s; B waits for the lock at most its 5 s.
    const a = browser.open({ sync: true, client: { timeoutMs: 60_000 } });
    const b = browser.open({ sync: true, client: { timeoutMs: 5_000 } });
    await browser.settle();
    browser.hold = { at: 'requests', page: a };
    const first = a.billing.consume({ externalId: 'a-1' });
    await browser.settle();
    const waiting = b.billing.consume({ externalId: 'b-1' }).catch((error: unknown) => error);
    await browser.settle();
    await browser.advance(5_000);
    await expect(waiting).resolves.toMatchObject({ code: 'timeout', externalId: 'b-1' });
    expect(browser.sent.filter((s) => s.path === PATH.consume).map((s) => s.externalId)).toEqual(['a-1']);
    expect(browser.locks.pending).toBe(0);
    browser.release();
    await expect(first).resolves.toMatchObject({ isCredit: false });
    await browser.settle();
    await b.billing.consume({ externalId: 'b-2' });
    expect(browser.backend.charged).toEqual(['a-1']);
  });

  it("the caller's signal ends the wait at once, and the request is withdrawn", async () => {
    const page = hung();
    const controller = new AbortController();
    const outcome = page.billing.consume({ signal: controller.signal }).catch((error: unknown) => error);
    await browser.settle();
    controller.abort();
    await expect(outcome).resolves.toMatchObject({ code: 'aborted' });
    await browser.settle();
    expect(consumeWaits()).toBe(0);
  });

  it('dispose() ends the wait at once, and the request is withdrawn', async () => {
    const page = hung();
    const outcome = page.billing.consume().catch((error: unknown) => error);
    await browser.settle();
    page.billing.dispose();
    await expect(outcome).resolves.toMatchObject({ code: 'disposed' });
    await browser.settle();
    expect(consumeWaits()).toBe(0);
  });
});

describe('a wall-clock step costs neither side: a tab that joins keeps the time actually left', () => {
  it.each([-3_000, -3_600_000, 3_600_000])(
    'the wall clock stepped by %i ms 5 s after the charge, then a new tab joins',
    async (step) => {
      browser = new Browser();
      const a = browser.open({ sync: true });
      await a.billing.consume({ externalId: 'charged' });
      await browser.advance(5_000);
      browser.wallOffset += step;
      await browser.settle();
      const late = browser.open({ sync: true });
      await browser.settle();
      expect(late.billing.check().reason).toBe('free_period');
      expect(await firstValueFrom(late.billing.freePeriodRemaining$)).toBe(25);
      await late.billing.consume();
      expect(browser.count(PATH.consume)).toBe(1);
      // Never beyond 30 s after the charge, whatever the wall clock says.
      await browser.advance(24_999);
      expect(late.billing.check().reason).toBe('free_period');
      await browser.advance(1);
      expect(late.billing.check().reason).not.toBe('free_period');
    },
  );

  it('the same, without query(): the joining tab learns the time left from the owner', async () => {
    browser = new Browser({}, { locks: { query: 'missing' } });
    const a = browser.open({ sync: true });
    await a.billing.consume({ externalId: 'charged' });
    await browser.advance(12_000);
    browser.wallOffset -= 3_000;
    const late = browser.open({ sync: true });
    await browser.settle();
    expect(await firstValueFrom(late.billing.freePeriodRemaining$)).toBe(18);
    await late.billing.consume();
    expect(browser.count(PATH.consume)).toBe(1);
  });
});
