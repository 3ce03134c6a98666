import type { Browser, Page } from 'playwright-core';
import { createReferenceBackend, REFERENCE_PATHS, type InProcessReferenceBackend } from '../../lib/testing';
import { launchChromium } from './chromium';
import { bundlePage, routePage } from './routed-page';

// Issue 19 §2 in Chromium: a fake Redux DevTools extension on the page (installed before the
// library loads, as the real one is) sees the actions of a consume, and never the token,
// not even one the backend echoed. Needs the engine's `devtools` option.
const ORIGIN = 'https://app.billing.test';
const TOKEN = 'sk_live_Chromium-Secret-7';

const FAKE_EXTENSION = `
window.__devtools = { connects: [], messages: [], unsubscribed: 0 };
window.__REDUX_DEVTOOLS_EXTENSION__ = {
  connect(options) {
    window.__devtools.connects.push(JSON.parse(JSON.stringify(options)));
    return {
      init: (state) => window.__devtools.messages.push({ kind: 'init', state: JSON.stringify(state) }),
      send: (action, state) =>
        window.__devtools.messages.push({ kind: 'send', type: action.type, action: JSON.stringify(action), state: JSON.stringify(state) }),
      subscribe: () => () => undefined,
      unsubscribe: () => (window.__devtools.unsubscribed += 1),
    };
  },
};`;

const PAGE_SCRIPT = `
import { createClient } from './lib';
import { reduxDevtools } from './lib/devtools';
window.runBilling = async (token) => {
  const client = createClient({
    baseUrl: location.origin,
    appKey: 'devtools',
    retries: 0,
    headers: { Authorization: 'Bearer ' + token },
    devtools: reduxDevtools(),
  });
  const failed = await client.billing.getUsage().then(() => null, (error) => error.code);
  await client.billing.getUsage();
  const result = await client.billing.consume();
  client.billing.dispose();
  const sentBeforeDispose = window.__devtools.messages.length;
  await client.billing.getUsage().catch(() => undefined);
  return { failed, freeRemaining: result.freeRemaining, sentBeforeDispose };
};
`;

interface Seen {
  readonly connects: Array<{ name: string }>;
  readonly messages: Array<{ kind: string; type?: string; action?: string; state: string }>;
  readonly unsubscribed: number;
}

let script: string;
let browser: Browser;
let page: Page;
let backend: InProcessReferenceBackend;

beforeAll(async () => {
  script = await bundlePage(PAGE_SCRIPT);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  backend = createReferenceBackend({
    users: [{ token: TOKEN, freeRemaining: 1, freeTotal: 3, creditsPerUse: 2, creditsBalance: 10 }],
  });
  page = await browser.newPage();
});
afterEach(async () => {
  await page?.close();
});

describe('the Redux DevTools extension on a page whose client has devtools: reduxDevtools()', () => {
  test('sees the actions of a consume, with the state after each, and no token', async () => {
    // The first usage answer is an error quoting the token, as a careless backend would.
    backend.failNext(REFERENCE_PATHS.freeTrialCount, 1, {
      kind: 'malformed',
      status: 500,
      body: JSON.stringify({ code: 500, message: `token Bearer ${TOKEN} rejected` }),
    });
    const html = `<!doctype html><script>${FAKE_EXTENSION}</script><script>${script}</script>`;
    await routePage(page, ORIGIN, html, backend);
    await page.goto(`${ORIGIN}/`);
    const outcome = await page.evaluate(
      (token) => (window as unknown as { runBilling: (t: string) => Promise<unknown> }).runBilling(token),
      TOKEN,
    );
    expect(outcome).toMatchObject({ failed: 'http', freeRemaining: 0 });
    const seen = await page.evaluate(() => (window as unknown as { __devtools: Seen }).__devtools);

    expect(seen.connects.map((options) => options.name)).toEqual(['unified-billing:generator_devtools']);
    expect(seen.messages[0]?.kind).toBe('init');
    const types = seen.messages.flatMap((message) => (message.type === undefined ? [] : [message.type]));
    expect(types).toEqual(expect.arrayContaining(['usage/loaded', 'consume/charged']));
    const afterCharge = JSON.parse(seen.messages[types.lastIndexOf('consume/charged') + 1]?.state ?? 'null');
    expect(afterCharge).toMatchObject({ usage: { freeRemaining: 0 }, freePeriodEndsAt: expect.any(Number) });

    const everything = JSON.stringify(seen);
    expect(everything).not.toContain('Chromium-Secret');
    expect(everything).not.toContain('Bearer');
    // dispose() closed the connection: nothing after it.
    expect(seen.unsubscribed).toBe(1);
    expect(seen.messages).toHaveLength((outcome as { sentBeforeDispose: number }).sentBeforeDispose);
  });
});
