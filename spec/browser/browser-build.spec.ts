import { build } from 'esbuild';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { createReferenceBackend, type InProcessReferenceBackend } from '../../lib/testing';
import { launchChromium } from './chromium';
import { devFlag } from '../../scripts/dev-flag.cjs';

// The package's one build in Chromium, with no `fetch` option: the
// platform fetch must be called without an "Illegal invocation", and every
// charged consume must carry a v4 id, from crypto.randomUUID on a secure page
// and from crypto.getRandomValues on a plain-http one (no randomUUID there).
const TOKEN = 'browser-build-user';
const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const PAGE_SCRIPT = `
import { createClient } from './lib';
// Two clients one after the other: a charge opens a free period in which a
// client sends nothing, so each client consumes once.
window.runBilling = async (token) => {
  for (let i = 0; i < 2; i += 1) {
    const client = createClient({ baseUrl: location.origin, appKey: 'browser', headers: { Authorization: 'Bearer ' + token } });
    try {
      await client.billing.consume();
    } catch (error) {
      return { ok: false, code: error.code, message: error.message, cause: String(error.cause && error.cause.message) };
    } finally {
      client.billing.dispose();
    }
  }
  return { ok: true, secure: window.isSecureContext, randomUUID: typeof crypto.randomUUID };
};
`;

interface Outcome {
  readonly ok: boolean;
  readonly secure?: boolean;
  readonly randomUUID?: string;
  readonly code?: string;
}

let script: string;
let bundled: string[];
let browser: Browser;
let page: Page;

// As an app's bundler builds it for browsers.
async function bundle(): Promise<{ text: string; inputs: string[] }> {
  const result = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: join(__dirname, '../..'), loader: 'ts' },
    bundle: true,
    plugins: [devFlag],
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0]?.text ?? '', inputs: Object.keys(result.metafile.inputs) };
}

// The page and the backend on one routed origin: Chromium serves the page and
// hands each API request to the in-process reference backend, so the origin
// can be https (a secure context) or plain http (not one) with no certificate.
async function serve(route: Route, backend: InProcessReferenceBackend): Promise<void> {
  const request = route.request();
  if (new URL(request.url()).pathname === '/') {
    await route.fulfill({ contentType: 'text/html', body: `<!doctype html><script>${script}</script>` });
    return;
  }
  const body = request.postData();
  const response = await backend.fetch(request.url(), {
    method: request.method(),
    headers: request.headers(),
    ...(body === null ? {} : { body }),
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  await route.fulfill({ status: response.status, headers, body: await response.text() });
}

async function runOn(origin: string): Promise<{ outcome: Outcome; backend: InProcessReferenceBackend }> {
  const backend = createReferenceBackend({
    users: [{ token: TOKEN, freeRemaining: 1, freeTotal: 1, creditsPerUse: 1, creditsBalance: 5 }],
  });
  await page.route(`${origin}/**`, (route) => serve(route, backend));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => 'runBilling' in window);
  const outcome = await page.evaluate(
    (token) => (window as unknown as { runBilling: (t: string) => Promise<Outcome> }).runBilling(token),
    TOKEN,
  );
  return { outcome, backend };
}

beforeAll(async () => {
  ({ text: script, inputs: bundled } = await bundle());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  page = await browser.newPage();
});

afterEach(async () => {
  await page?.close();
});

describe('the build in Chromium, with no fetch option', () => {
  // That no package but rxjs reaches the bundle is checked on the built
  // package (check:bundle, check:package) and by spec/perf/size.spec.ts.
  test('bundles the platform files, which read the runtime globals', () => {
    expect(bundled.filter((path) => path.startsWith('lib/platform/')).sort()).toEqual([
      'lib/platform/default-fetch.ts',
      'lib/platform/random-id.ts',
    ]);
  });

  test('on a secure page: the platform fetch charges two consumes, with distinct crypto.randomUUID ids', async () => {
    const { outcome, backend } = await runOn('https://app.billing.test');
    expect(outcome).toEqual({ ok: true, secure: true, randomUUID: 'function' });
    const ids = backend.charges().map((charge) => charge.externalId);
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => V4.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });

  test('on a plain-http page (no randomUUID): two consumes charged with distinct v4 ids from getRandomValues', async () => {
    const { outcome, backend } = await runOn('http://app.billing.test');
    expect(outcome).toEqual({ ok: true, secure: false, randomUUID: 'undefined' });
    const ids = backend.charges().map((charge) => charge.externalId);
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => V4.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });
});
