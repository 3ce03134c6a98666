import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import type { Browser, Page } from 'playwright-core';
import { createClient, type BillingSnapshot } from '../../lib';
import { createReferenceBackend, type InProcessReferenceBackend } from '../../lib/testing';
import { launchChromium } from './chromium';
import { bundlePage, inlineJson, routePage } from './routed-page';
import { App } from './ssr-app';

// Issue 19 §1 in Chromium: a page server-rendered (react-dom/server) from a server-side
// client's snapshot() hydrates with no hydration warning and shows the quota before any
// fetch. Needs the engine's snapshot() and `bootstrap` option.
const ORIGIN = 'https://app.billing.test';
const TOKEN = 'ssr-user';

const PAGE_SCRIPT = `
import { createElement as h } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { App } from './spec/browser/ssr-app';
const problems = (window.__problems = []);
const original = console.error;
console.error = (...args) => {
  problems.push(args.map(String).join(' '));
  original(...args);
};
const props = window.__props;
hydrateRoot(document.getElementById('root'), h(App, props), {
  onRecoverableError: (error) => problems.push('recoverable: ' + String(error && error.message)),
});
window.__hydrated = true;
`;

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
    users: [{ token: TOKEN, freeRemaining: 3, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 }],
  });
  page = await browser.newPage();
});
afterEach(async () => {
  await page?.close();
});

/** The server's part: fetch with the user's token, take the snapshot, render the page from it. */
async function serverRender(): Promise<{ html: string; snapshot: BillingSnapshot | null }> {
  const server = createClient({
    baseUrl: 'https://api.billing.test',
    appKey: 'ssr',
    headers: { Authorization: `Bearer ${TOKEN}` },
    fetch: backend.fetch,
  });
  await server.billing.getUsage();
  const snapshot = server.billing.snapshot();
  server.billing.dispose();
  const html = renderToString(h(App, { baseUrl: ORIGIN, token: TOKEN, bootstrap: snapshot }));
  return { html, snapshot };
}

async function open(html: string, props: unknown): Promise<{ requests: () => unknown[]; before: string }> {
  const served = `<!doctype html><div id="root">${html}</div>
<script>window.__props = ${inlineJson(props)};</script><script>${script}</script>`;
  const requests = await routePage(page, ORIGIN, served, backend);
  const seenBefore = backend.requests().length;
  // The text as parsed, before the page's script ran.
  await page.goto(`${ORIGIN}/`, { waitUntil: 'commit' });
  const before = await page.locator('#quota').textContent();
  await page.waitForFunction(() => (window as unknown as { __hydrated?: boolean }).__hydrated === true);
  return { requests: () => requests().slice(seenBefore), before: before ?? '' };
}

const problems = () => page.evaluate(() => (window as unknown as { __problems: string[] }).__problems);

describe('a server-rendered page bootstrapped from snapshot()', () => {
  test('shows the quota before any fetch, and hydrates with no warning and no request', async () => {
    const { html, snapshot } = await serverRender();
    expect(html).toBe('<p id="quota">3/5 free, 10 credits</p>');
    const { requests, before } = await open(html, { baseUrl: ORIGIN, token: TOKEN, bootstrap: snapshot });
    expect(before).toBe('3/5 free, 10 credits');
    // Settled: React would have reported a mismatch during hydration, and effects have run.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(await page.locator('#quota').textContent()).toBe('3/5 free, 10 credits');
    expect(await problems()).toEqual([]);
    expect(requests()).toEqual([]);
  });

  test('(control) the same page hydrated without the bootstrap reports the mismatch', async () => {
    // The markup the bootstrapped server renders, written out so this control needs no snapshot().
    await open('<p id="quota">3/5 free, 10 credits</p>', { baseUrl: ORIGIN, token: TOKEN, bootstrap: null });
    await page.waitForFunction(() => (window as unknown as { __problems: string[] }).__problems.length > 0);
    expect((await problems()).join('\n')).toMatch(/hydrat/i);
  });
});
