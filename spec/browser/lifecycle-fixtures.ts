// Shared by the browser specs: the lifecycle edges of issue 9 (reload, window.open, busy tab, dispose, countdown) and the usage line.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REFERENCE_PATHS, type ReferenceBackend, type RequestRecord } from '../../lib/testing';
import type { HookOutcome } from '../../playground/page/test-hooks';
import { startPlayground, type Playground } from '../../playground/server/start-playground';
import { launchChromium } from './chromium';

/** The playground and Chromium for one spec file, and a fresh browser context (its own storage) per test. */
export interface Rig {
  readonly playground: Playground;
  readonly backend: ReferenceBackend;
  readonly context: BrowserContext;
  /** A new tab at `/` plus the query (e.g. `?storage=session`), once the first usage is on screen. */
  open(query: string): Promise<Page>;
}

/** Registers the hooks that start and stop everything; the rig is valid inside tests only. */
export function useRig(): Rig {
  let playground: Playground | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    playground = await startPlayground({ port: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  });
  beforeEach(async () => {
    playground?.backend.reset();
    context = await browser?.newContext();
  });
  afterEach(async () => {
    await context?.close();
  });
  const must = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the rig is only ready inside a test');
    return value;
  };
  return {
    get playground() {
      return must(playground);
    },
    get backend() {
      return must(playground).backend;
    },
    get context() {
      return must(context);
    },
    async open(query) {
      const page = await must(context).newPage();
      await page.goto(`${must(playground).url}/${query}`);
      await page.locator('[data-testid="free-total"]').filter({ hasText: /^\d+$/ }).waitFor();
      return page;
    },
  };
}

/** Waits until the element `data-testid=id` of `page` shows exactly `text` (10 s at most by default). */
export async function shows(page: Page, id: string, text: string, timeout = 10_000): Promise<void> {
  await page
    .locator(`[data-testid="${id}"]`)
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor({ timeout });
}

/** The consume POSTs the backend received for this `external_id`, in order of arrival. */
export function postsFor(backend: ReferenceBackend, externalId: string): RequestRecord[] {
  return backend
    .requests()
    .filter(
      (r) =>
        r.method === 'POST' &&
        r.path === REFERENCE_PATHS.consume &&
        (r.body as { external_id?: unknown } | undefined)?.external_id === externalId,
    );
}

/** The `external_id` of every consume POST the backend received. */
export function postedIds(backend: ReferenceBackend): string[] {
  return backend
    .requests()
    .filter((r) => r.method === 'POST' && r.path === REFERENCE_PATHS.consume)
    .map((r) => String((r.body as { external_id?: unknown } | undefined)?.external_id));
}

/** Polls the backend (in this process) until `condition` holds; fails with `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts `consume({ externalId })` through the page's hook; it settles in the page. */
export async function startConsume(page: Page, externalId: string): Promise<void> {
  await page.evaluate((id) => window.__billing.startConsume(id), externalId);
}

/** Waits for the outcome the page's hook recorded for this consume. */
export async function outcomeOf(page: Page, externalId: string, timeout = 15_000): Promise<HookOutcome> {
  await page.waitForFunction((id) => window.__billing.outcomes[id] !== undefined, externalId, { timeout });
  return page.evaluate((id) => window.__billing.outcomes[id] as HookOutcome, externalId);
}

/** What the page's "Recovered after reload" panel lists: `[externalId, kind]` per consume `recovered$` reported. */
export async function recoveredShown(page: Page): Promise<string[][]> {
  return page
    .locator('[data-testid="recovered-entry"]')
    .evaluateAll((items) =>
      items.map((item) => [item.getAttribute('data-external-id') ?? '', item.getAttribute('data-kind') ?? '']),
    );
}
