// The page of the element specs (issue 26): the built-from-source element entry and a client on
// a virtual clock, served on a routed origin whose API requests go to the in-process reference
// backend, optionally held at a gate so the loading and pending states stay on screen.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { BillingModule } from '../../lib';
import type { BillingElementNames } from '../../lib/element';
import type { InProcessReferenceBackend } from '../../lib/testing';
import { bundlePage } from './routed-page';

export const ORIGIN = 'https://elements.billing.test';
export const TOKEN = 'element-user';

// In the page: `window.t` opens clients on the virtual clock (their observables wrapped to count
// live subscriptions), moves time, and records the gate's events.
const PAGE_SCRIPT = `
import { Observable } from 'rxjs';
import { createClient } from './lib';
import { defineBillingElements } from './lib/element';
import { VirtualClock } from './spec/helpers/virtual-clock';
defineBillingElements();
const clock = new VirtualClock(0);
let live = 0;
const counted = (source) =>
  new Observable((subscriber) => {
    live += 1;
    const subscription = source.subscribe(subscriber);
    return () => {
      live -= 1;
      subscription.unsubscribe();
    };
  });
window.t = {
  element: { defineBillingElements },
  clock,
  events: [],
  client(token) {
    const { billing } = createClient({
      baseUrl: location.origin,
      appKey: 'elements',
      headers: { Authorization: 'Bearer ' + token },
      scheduler: clock,
      retries: 0,
    });
    return {
      ...billing,
      usage$: counted(billing.usage$),
      status$: counted(billing.status$),
      freePeriodRemaining$: counted(billing.freePeriodRemaining$),
    };
  },
  live: () => live,
  timers: () => clock.pending,
  advance: (ms) => clock.advanceBy(ms),
  record(gate) {
    for (const type of ['billing-granted', 'billing-denied']) {
      gate.addEventListener(type, (event) => window.t.events.push({ type, detail: JSON.parse(JSON.stringify(event.detail)), code: event.detail.error?.code }));
    }
  },
};
`;

/** What the page script puts on `window.t`. */
export interface ElementPageHooks {
  readonly element: { defineBillingElements(names?: BillingElementNames): void };
  /** The gate's events, in order, their detail as JSON (and a denial's error code). */
  readonly events: Array<{ type: string; detail: unknown; code?: string }>;
  /** A new client for `token` on the page's virtual clock, its observables counted. */
  client(token: string): BillingModule;
  /** The client the markup's elements got. */
  billing: BillingModule;
  /** Subscriptions to the counted observables now open. */
  live(): number;
  /** Timers armed on the virtual clock. */
  timers(): number;
  advance(ms: number): void;
  record(gate: HTMLElement): void;
}

declare global {
  interface Window {
    t: ElementPageHooks;
  }
}

let script: string | undefined;

/** The page script, bundled once per spec file. */
export async function pageScript(): Promise<string> {
  return (script ??= await bundlePage(PAGE_SCRIPT));
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A gate on the backend: while closed, API requests wait before the backend sees them. */
export class RequestGate {
  private waiting: Array<() => void> = [];
  closed = false;
  /** Requests that reached the gate while it was closed and still wait. */
  get held(): number {
    return this.waiting.length;
  }
  pass(): Promise<void> {
    return this.closed ? new Promise((resolve) => this.waiting.push(resolve)) : Promise.resolve();
  }
  open(): void {
    this.closed = false;
    this.waiting.splice(0).forEach((go) => go());
  }
}

/**
 * Opens the element page on `backend`, with `body` as its markup; each API request passes `gate`.
 */
export async function openElementPage(
  browser: Browser,
  backend: InProcessReferenceBackend,
  gate: RequestGate,
  body: string,
): Promise<Page> {
  const page = await browser.newPage();
  const html = `<!doctype html><html lang="en"><head><title>Billing elements</title></head><body><main><h1>Export</h1>${body}</main><script>${await pageScript()}</script><script>${AXE}</script></body></html>`;
  await page.route(`${ORIGIN}/**`, async (route) => {
    const request = route.request();
    if (new URL(request.url()).pathname === '/') {
      await route.fulfill({ contentType: 'text/html', body: html });
      return;
    }
    await gate.pass();
    const posted = request.postData();
    const response = await backend.fetch(request.url(), {
      method: request.method(),
      headers: request.headers(),
      ...(posted === null ? {} : { body: posted }),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    await route.fulfill({ status: response.status, headers, body: await response.text() }).catch(() => undefined);
  });
  await page.goto(`${ORIGIN}/`);
  return page;
}

/** axe-core's violations on the whole page (shadow roots included), as `id: targets`. */
export async function axeViolations(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: Document): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(document);
    return violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
}

/** What the meter shows now: its state and the text a sighted user sees (hidden parts excluded). */
export async function meterView(
  page: Page,
  selector = 'billing-meter',
): Promise<{ state: string | null; text: string }> {
  return page.evaluate((sel) => {
    const meter = document.querySelector(sel) as HTMLElement;
    const box = meter.shadowRoot?.querySelector('[part=meter]') as HTMLElement;
    return { state: meter.getAttribute('data-state'), text: box.innerText.replace(/\s+/g, ' ').trim() };
  }, selector);
}

/** The meter's live region now. */
export function announced(page: Page, selector = 'billing-meter'): Promise<string> {
  return page.evaluate(
    (sel) => document.querySelector(sel)?.shadowRoot?.querySelector('[role=status]')?.textContent ?? '',
    selector,
  );
}

/** Waits until the meter is in `state`. */
export async function meterIn(page: Page, state: string, selector = 'billing-meter'): Promise<void> {
  await page.waitForFunction(({ sel, want }) => document.querySelector(sel)?.getAttribute('data-state') === want, {
    sel: selector,
    want: state,
  });
}
