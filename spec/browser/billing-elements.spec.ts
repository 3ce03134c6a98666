import type { Browser, Page } from 'playwright-core';
import { createReferenceBackend, REFERENCE_PATHS, type InProcessReferenceBackend } from '../../lib/testing';
import type { ReferenceUser } from '../../lib/testing';
import { launchChromium } from './chromium';
import { announced, axeViolations, meterIn, meterView, openElementPage, RequestGate, TOKEN } from './element-page';

// Issue 26: <billing-meter> and <billing-gate> in Chromium, against the reference backend,
// with the client on a virtual clock the test moves (window.t.advance).
const MARKUP = `<billing-meter unit="export"><a slot="top-up" href="#top-up">Buy credits</a></billing-meter>
<billing-gate><button type="button">Export</button></billing-gate>`;

let browser: Browser;
let backend: InProcessReferenceBackend;
let gate: RequestGate;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());
afterEach(async () => {
  gate?.open();
  await page?.close();
});

type Quota = Omit<ReferenceUser, 'token'>;
const PLENTY: Quota = { freeRemaining: 3, freeTotal: 3, creditsPerUse: 10, creditsBalance: 20 };

/** A page with the markup and both elements on one client; the backend's one user on `quota`. */
async function open(
  quota: Quota,
  { hold = false, prepare = () => undefined }: { hold?: boolean; prepare?: () => void } = {},
): Promise<void> {
  backend = createReferenceBackend({ users: [{ token: TOKEN, ...quota }] });
  prepare();
  gate = new RequestGate();
  gate.closed = hold;
  page = await openElementPage(browser, backend, gate, MARKUP);
  await page.evaluate((token) => {
    const billing = window.t.client(token);
    window.t.billing = billing;
    document.querySelector('billing-meter')!.billing = billing;
    const element = document.querySelector('billing-gate')!;
    element.billing = billing;
    window.t.record(element);
  }, TOKEN);
}

const button = () => page.locator('billing-gate button');
const charges = () => backend.charges().length;
const events = () => page.evaluate(() => window.t.events);
async function untilHeld(n: number): Promise<void> {
  for (let i = 0; gate.held < n; i++) {
    if (i > 400) throw new Error(`${n} request(s) never reached the gate`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('<billing-meter> against the reference backend', () => {
  test('loading: a skeleton, never "0 left" or a refusal, and the gate refuses nothing; then ready', async () => {
    await open(PLENTY, { hold: true });
    await untilHeld(2);
    const loading = await meterView(page);
    expect(loading.state).toBe('loading');
    expect(loading.text).toBe('Loading your quota…');
    expect(await button().isDisabled()).toBe(false);
    expect(
      await page.evaluate(() =>
        document.querySelector('billing-meter')!.shadowRoot!.querySelector('[part=skeleton]')!.checkVisibility(),
      ),
    ).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    gate.open();
    await meterIn(page, 'ready');
    expect((await meterView(page)).text).toBe('3 of 3 free exports left 20 credits Next export is free');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('free period: a charge starts it, the countdown shows each second, only start and end are announced', async () => {
    await open(PLENTY);
    await meterIn(page, 'ready');
    await button().click();
    await page.waitForFunction(() => window.t.events.length === 1);
    expect((await meterView(page)).text).toBe('2 of 3 free exports left 20 credits Next export is free Free for 30 s');
    expect(await announced(page)).toBe('2 free exports left. Free for 30 s.');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => window.t.advance(1000));
    expect((await meterView(page)).text).toMatch(/Free for 29 s$/);
    await page.evaluate(() => window.t.advance(1000));
    expect((await meterView(page)).text).toMatch(/Free for 28 s$/);
    // The seconds are on screen only: the live region still holds the start.
    expect(await announced(page)).toBe('2 free exports left. Free for 30 s.');
    await page.evaluate(() => window.t.advance(28_000));
    expect((await meterView(page)).text).toBe('2 of 3 free exports left 20 credits Next export is free');
    expect(await announced(page)).toBe('Free period over.');
  });

  test("out of credits: the empty state with the app's top-up slot, and the gate disabled", async () => {
    await open({ freeRemaining: 0, freeTotal: 3, creditsPerUse: 10, creditsBalance: 5 });
    await meterIn(page, 'empty');
    expect((await meterView(page)).text).toBe(
      '0 of 3 free exports left 5 credits Next export costs 10 credits Out of credits.',
    );
    // The app's own words, slotted: shown only in this state.
    expect(await page.getByRole('link', { name: 'Buy credits' }).isVisible()).toBe(true);
    await page.waitForFunction(() => document.querySelector('billing-gate button')!.hasAttribute('disabled'));
    expect(await axeViolations(page)).toEqual([]);
  });

  test('a failed load shows the error and a retry button, which loads', async () => {
    await open(PLENTY, {
      prepare: () => backend.failNext(REFERENCE_PATHS.freeTrialCount, 1, { kind: 'status', status: 503 }),
    });
    await meterIn(page, 'error');
    expect((await meterView(page)).text).toBe('Could not load your quota. Retry');
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('billing-meter').getByRole('button', { name: 'Retry' }).click();
    await meterIn(page, 'ready');
    expect((await meterView(page)).text).toBe('3 of 3 free exports left 20 credits Next export is free');
  });

  test('a top-up on the backend shows after a refetch, and is announced', async () => {
    await open({ freeRemaining: 0, freeTotal: 3, creditsPerUse: 10, creditsBalance: 0 });
    await meterIn(page, 'empty');
    backend.setUser(TOKEN, { creditsBalance: 50 });
    await page.evaluate(() => window.t.billing.getUsage());
    await meterIn(page, 'ready');
    expect((await meterView(page)).text).toBe('0 of 3 free exports left 50 credits Next export costs 10 credits');
    expect(await announced(page)).toBe('Topped up: 50 credits.');
    expect(await page.getByRole('link', { name: 'Buy credits' }).isVisible()).toBe(false);
    expect(await button().isDisabled()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('<billing-gate>', () => {
  test('a double click is one charge and one billing-granted; the button is aria-busy while pending', async () => {
    await open(PLENTY);
    await meterIn(page, 'ready');
    gate.closed = true;
    await button().dblclick();
    await untilHeld(1);
    expect(await button().getAttribute('aria-busy')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    gate.open();
    await page.waitForFunction(() => window.t.events.length === 1);
    expect(await button().getAttribute('aria-busy')).toBeNull();
    expect(charges()).toBe(1);
    expect(await events()).toEqual([
      { type: 'billing-granted', detail: { freeRemaining: 2, isCredit: false, isBlacklisted: false } },
    ]);
  });

  test('a consume the backend refuses dispatches billing-denied with the typed error and what a top-up needs', async () => {
    await open({ freeRemaining: 0, freeTotal: 3, creditsPerUse: 10, creditsBalance: 20 });
    await meterIn(page, 'ready');
    // Spent elsewhere: the cache still says the consume can go.
    backend.setUser(TOKEN, { creditsBalance: 4 });
    await button().click();
    await page.waitForFunction(() => window.t.events.length === 1);
    const [denied] = await events();
    expect(denied).toMatchObject({
      type: 'billing-denied',
      code: 'insufficient_credits',
      detail: { creditsNeeded: 6 },
    });
    expect(charges()).toBe(0);
    await meterIn(page, 'empty');
  });

  test('a blacklisted user: billing-granted with isBlacklisted, nothing charged', async () => {
    await open({ ...PLENTY, blacklisted: true });
    await meterIn(page, 'ready');
    await button().click();
    await page.waitForFunction(() => window.t.events.length === 1);
    expect(await events()).toEqual([
      { type: 'billing-granted', detail: { freeRemaining: 3, isCredit: false, isBlacklisted: true } },
    ]);
    expect(charges()).toBe(0);
  });
});

describe('lifecycle', () => {
  test('1000 connect/disconnect cycles and a client swap leave no subscription, listener or timer', async () => {
    await open(PLENTY);
    await meterIn(page, 'ready');
    // A free period: the client's own end timer runs, and a connected meter ticks beside it.
    await button().click();
    await page.waitForFunction(() => window.t.events.length === 1);
    const cdp = await page.context().newCDPSession(page);
    const listeners = async () => {
      let n = 0;
      for (const expression of ['window', 'document']) {
        const { result } = await cdp.send('Runtime.evaluate', { expression });
        n += (await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId as string })).listeners
          .length;
      }
      return n;
    };
    const connected = await page.evaluate(() => ({ live: window.t.live(), timers: window.t.timers() }));
    const before = await listeners();
    const after = await page.evaluate(() => {
      const meter = document.querySelector('billing-meter')!;
      const gateElement = document.querySelector('billing-gate')!;
      const elsewhere = document.createElement('div');
      document.body.append(elsewhere);
      for (let i = 0; i < 1000; i++) {
        meter.remove();
        gateElement.remove();
        // Every other cycle a move: connected somewhere else.
        (i % 2 ? elsewhere : document.querySelector('main')!).append(meter, gateElement);
      }
      const whileConnected = { live: window.t.live(), timers: window.t.timers() };
      meter.remove();
      gateElement.remove();
      return { whileConnected, removed: { live: window.t.live(), timers: window.t.timers() } };
    });
    // Meter: status$, usage$, the countdown; gate: status$, usage$. The meter's ticker is one timer.
    expect(connected).toEqual({ live: 5, timers: 2 });
    expect(after.whileConnected).toEqual(connected);
    expect(after.removed).toEqual({ live: 0, timers: 1 });
    expect(await listeners()).toBe(before);

    // A user switch: the new client's subscriptions replace the old one's.
    const swapped = await page.evaluate((token) => {
      const meter = document.querySelector('main')!.appendChild(document.createElement('billing-meter'));
      const first = window.t.client(token);
      meter.billing = first;
      const withFirst = window.t.live();
      meter.billing = window.t.client(token);
      const withSecond = window.t.live();
      meter.billing = null;
      return { withFirst, withSecond, withNone: window.t.live() };
    }, TOKEN);
    expect(swapped).toEqual({ withFirst: 3, withSecond: 3, withNone: 0 });
  });

  test('registering twice is harmless and a custom tag name works', async () => {
    await open(PLENTY);
    const names = await page.evaluate(() => {
      const { defineBillingElements } = window.t.element;
      defineBillingElements();
      defineBillingElements({ meter: 'acme-meter', gate: 'acme-gate' });
      defineBillingElements({ meter: 'acme-meter', gate: 'acme-gate' });
      return ['billing-meter', 'acme-meter', 'acme-gate'].map((name) => typeof customElements.get(name));
    });
    expect(names).toEqual(['function', 'function', 'function']);
  });
});
