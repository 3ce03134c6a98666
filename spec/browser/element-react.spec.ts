import type { Browser, Page } from 'playwright-core';
import { createReferenceBackend } from '../../lib/testing';
import { launchChromium } from './chromium';
import { meterIn, meterView } from './element-page';
import { bundlePage, routePage } from './routed-page';

// Issue 26 in React 19: the JSX of docs/recipes/elements-react.tsx really reaches the elements.
// React 19 sets `billing` as a property (not an attribute) and `onbilling-granted` listens to
// the gate's event.
const ORIGIN = 'https://elements-react.billing.test';
const PAGE_SCRIPT = `
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from './lib';
import { defineBillingElements } from './lib/element';
defineBillingElements();
const { billing } = createClient({ baseUrl: location.origin, appKey: 'react', headers: { Authorization: 'Bearer r' } });
window.granted = [];
createRoot(document.getElementById('root')).render(
  h('div', null,
    h('billing-meter', { billing, unit: 'export' }),
    h('billing-gate', { billing, 'onbilling-granted': (event) => window.granted.push(event.detail.freeRemaining) },
      h('button', { type: 'button' }, 'Export'))),
);
`;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  const script = await bundlePage(PAGE_SCRIPT);
  browser = await launchChromium();
  page = await browser.newPage();
  const backend = createReferenceBackend({
    users: [{ token: 'r', freeRemaining: 3, freeTotal: 3, creditsPerUse: 10, creditsBalance: 20 }],
  });
  await routePage(page, ORIGIN, `<!doctype html><body><div id="root"></div><script>${script}</script></body>`, backend);
  await page.goto(`${ORIGIN}/`);
});
afterAll(() => browser?.close());

test('React 19 hands the elements the client as a property and hears billing-granted', async () => {
  await meterIn(page, 'ready');
  expect((await meterView(page)).text).toBe('3 of 3 free exports left 20 credits Next export is free');
  expect(await page.locator('billing-meter').getAttribute('billing')).toBeNull();
  await page.locator('billing-gate button').click();
  await page.waitForFunction(() => (window as unknown as { granted: number[] }).granted.length === 1);
  expect(await page.evaluate(() => (window as unknown as { granted: number[] }).granted)).toEqual([2]);
});
