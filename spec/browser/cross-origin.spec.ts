import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REFERENCE_PATHS, startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import { launchChromium } from './chromium';
import { devFlag } from '../../scripts/dev-flag.cjs';

// A page on one origin (like a Vite dev server on its own port) calls the
// reference backend on another, through the library built for the browser.
const TOKEN = 'cross-origin-user';
const USER = { token: TOKEN, freeRemaining: 2, freeTotal: 2, creditsPerUse: 5, creditsBalance: 20 };

const PAGE_SCRIPT = `
import { createClient } from './lib';
import { createReferenceBackend } from './lib/testing';
window.runInPage = async () => {
  const backend = createReferenceBackend({
    users: [{ token: 'in-page', freeRemaining: 0, freeTotal: 1, creditsPerUse: 5, creditsBalance: 12 }],
  });
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'page',
    headers: { Authorization: 'Bearer in-page' },
    fetch: backend.fetch,
  });
  try {
    const consumed = await client.billing.consume({ externalId: 'in-page-1' });
    return { ok: true, isCredit: consumed.isCredit, charges: backend.charges().length, balance: backend.getUser('in-page').creditsBalance };
  } catch (error) {
    return { ok: false, code: error.code, message: error.message };
  } finally {
    client.billing.dispose();
  }
};
window.runBilling = async (baseUrl, token) => {
  const client = createClient({ baseUrl, appKey: 'cors', headers: { Authorization: 'Bearer ' + token } });
  try {
    const usage = await client.billing.getUsage();
    const consumed = await client.billing.consume({ externalId: 'from-another-origin' });
    return { ok: true, freeRemaining: usage.freeRemaining, isCredit: consumed.isCredit };
  } catch (error) {
    return { ok: false, code: error.code, message: error.message };
  } finally {
    client.billing.dispose();
  }
};
`;

interface Outcome {
  readonly ok: boolean;
  readonly freeRemaining?: number;
  readonly isCredit?: boolean;
  readonly code?: string;
}

let pageServer: Server;
let pageOrigin: string;
let browser: Browser;
let page: Page;

async function bundle(): Promise<string> {
  const result = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: join(__dirname, '../..'), loader: 'ts' },
    bundle: true,
    plugins: [devFlag],
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

beforeAll(async () => {
  const script = await bundle();
  pageServer = createServer((req, res) => {
    if (req.url === '/app.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><script src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

beforeEach(async () => {
  page = await browser.newPage();
  await page.goto(`${pageOrigin}/`);
  await page.waitForFunction(() => 'runBilling' in window);
});

afterEach(async () => {
  await page?.close();
});

function runBilling(backend: ReferenceBackend): Promise<Outcome> {
  return page.evaluate(
    ([url, token]) =>
      (window as unknown as { runBilling: (u: string, t: string) => Promise<Outcome> }).runBilling(url, token),
    [backend.url, TOKEN] as const,
  );
}

describe('the reference backend called from a page on another origin (Chromium)', () => {
  test('by default, getUsage() and consume() succeed and the charge is applied once', async () => {
    const backend = await startReferenceBackend({ users: [USER] });
    try {
      expect(new URL(backend.url).origin).not.toBe(pageOrigin);
      expect(await runBilling(backend)).toEqual({ ok: true, freeRemaining: 2, isCredit: false });
      expect(backend.charges()).toEqual([expect.objectContaining({ externalId: 'from-another-origin', kind: 'free' })]);
      // The browser's preflights are not logged: the log shows the client's calls only. The two
      // GETs go out together, so either may arrive first (on a busy machine the balance did).
      const calls = backend.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
      expect(calls.slice(0, 2).sort()).toEqual(
        [`GET ${REFERENCE_PATHS.freeTrialCount} 200`, `GET ${REFERENCE_PATHS.balance} 200`].sort(),
      );
      expect(calls.slice(2)).toEqual([`POST ${REFERENCE_PATHS.consume} 200`]);
    } finally {
      await backend.close();
    }
  });

  test('with cors: false, the browser blocks every call: a network error, nothing charged', async () => {
    const backend = await startReferenceBackend({ users: [USER], cors: false });
    try {
      expect(await runBilling(backend)).toMatchObject({ ok: false, code: 'network' });
      expect(backend.charges()).toEqual([]);
      // Only preflights reached it, each refused with 405: no GET or POST was let through.
      const seen = backend.requests().map((r) => `${r.method} ${r.status}`);
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set(['OPTIONS 405']));
    } finally {
      await backend.close();
    }
  });
});

describe('createReferenceBackend inside a page (Chromium)', () => {
  test('bundled for the browser, it serves a client in the page with no server', async () => {
    const outcome = await page.evaluate(() => (window as unknown as { runInPage: () => Promise<unknown> }).runInPage());
    expect(outcome).toEqual({ ok: true, isCredit: true, charges: 1, balance: 7 });
  });
});
