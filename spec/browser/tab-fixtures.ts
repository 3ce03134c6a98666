// Shared by the tab and reload specs of issue 16: a clock the test moves in each page, a page paused
// in the debugger, an answer held in the browser, and what a page would decide now.
import type { BrowserContext, CDPSession, Page, Route } from 'playwright-core';
import { REFERENCE_PATHS } from '../../lib/testing';

declare global {
  interface Window {
    __clock: {
      /** Moves both clocks on by `ms`: time passing. */
      advance(ms: number): void;
      /** Moves only the wall clock (`Date.now`) by `ms`: an NTP step. */
      step(ms: number): void;
    };
  }
}

/**
 * Every page of the context reads `Date.now()` and `performance.now()` through offsets the test moves
 * (timers still run in real time). The wall offset survives a reload (kept in sessionStorage, as the
 * machine's clock would), the monotonic one starts again at 0 as a new page's does.
 */
export async function installClock(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const KEY = '__testClockWall';
    let wall = 0;
    try {
      wall = Number(window.sessionStorage.getItem(KEY) ?? 0);
    } catch {
      // about:blank has no storage: nothing to carry over.
    }
    let mono = 0;
    const realNow = Date.now.bind(Date);
    const realPerf = performance.now.bind(performance);
    Date.now = () => realNow() + wall;
    performance.now = () => realPerf() + mono;
    const keep = () => window.sessionStorage.setItem(KEY, String(wall));
    window.__clock = {
      advance(ms) {
        wall += ms;
        mono += ms;
        keep();
      },
      step(ms) {
        wall += ms;
        keep();
      },
    };
  });
}

/** Moves time on by `ms` in each page (wall and monotonic clocks alike). */
export async function advance(pages: readonly Page[], ms: number): Promise<void> {
  for (const page of pages) await page.evaluate((by) => window.__clock.advance(by), ms);
}

/**
 * Moves every page's clocks on by one amount, so that the first page's `Date.now()` reads `wall`: the pages
 * keep reading one wall clock, as real tabs do (a tab whose clock read even 1 ms before another's charge
 * could not date that charge's period).
 */
export async function advanceTo(pages: readonly Page[], wall: number): Promise<number> {
  const [first] = pages;
  if (first === undefined) return 0;
  const by = Math.max(0, wall - (await first.evaluate(() => Date.now())));
  await advance(pages, by);
  return by;
}

/** What the page would decide for a consume now (`preview().reason`), and the seconds of free period it counts. */
export async function decision(page: Page): Promise<{ reason: string | null; seconds: number }> {
  return page.evaluate(() => ({
    reason: window.__billing.preview()?.reason ?? null,
    seconds: window.__billing.secondsLeft(),
  }));
}

/** A page paused in the debugger (through CDP), as a frozen tab is: no task, timer or message of it runs. */
export interface Paused {
  /** Runs `expression` in the paused page (on its paused frame), e.g. to move its clock while it is frozen. */
  evaluate(expression: string): Promise<void>;
  resume(): Promise<void>;
}

/** Pauses `page` at the next JavaScript it runs (the page's 1 s status ticker runs some soon) and waits until it is. */
export async function pause(context: BrowserContext, page: Page): Promise<Paused> {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Debugger.enable');
  const paused = new Promise<string>((resolve) =>
    cdp.once('Debugger.paused', (event) => resolve(event.callFrames[0]?.callFrameId ?? '')),
  );
  await cdp.send('Debugger.pause');
  const callFrameId = await paused;
  return {
    async evaluate(expression) {
      const { exceptionDetails } = await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId, expression });
      if (exceptionDetails !== undefined) throw new Error(`in the paused page: ${exceptionDetails.text}`);
    },
    async resume() {
      await cdp.send('Debugger.resume');
      await cdp.send('Debugger.disable');
      await cdp.detach();
    },
  };
}

/**
 * Holds the page's consume answers in the browser, as a tab that dies before hearing back: its first POST
 * reaches the backend (which charges) and its answer never reaches the page; any later POST of the page
 * (a retry) is held before it is sent. Resolves once the backend has answered the first.
 */
export async function holdConsumeAnswers(page: Page): Promise<{ readonly answered: Promise<void> }> {
  let first = true;
  let answered = (): void => undefined;
  const done = new Promise<void>((resolve) => (answered = resolve));
  await page.route(`**${REFERENCE_PATHS.consume}`, async (route: Route) => {
    if (!first) return;
    first = false;
    await route.fetch();
    answered();
  });
  return { answered: done };
}
