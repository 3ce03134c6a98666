// Hooks for the real-browser suite (spec/browser/), on `window.__billing`. They only
// read the page or call the public API; nothing here changes how the page bills.
import { isBillingError, type BillingConsumeResult } from '../../lib';
import { describeFailure, type ConsumeKind } from './consume-log';
import type { Session } from './session';
import type { PagePreview, PageStatus } from './status-lines';

/** `getStatus()` of the current client with the error as its code, so it crosses to the test as JSON. */
export type HookStatus = Omit<PageStatus, 'error'> & { readonly error: string | null };

/**
 * How a consume settled, as the hooks record it.
 *
 * @example
 * ```ts
 * const paid: HookOutcome = { ok: true, kind: 'credits', settledAt: Date.now() };
 * ```
 */
export type HookOutcome =
  | { readonly ok: true; readonly kind: ConsumeKind; readonly settledAt: number }
  | { readonly ok: false; readonly kind: ConsumeKind; readonly code: string; readonly settledAt: number };

/**
 * What the page gives the hooks: its current session, and the page's own ways to end and start one.
 *
 * @example
 * ```ts
 * const controls: HookControls = { current: () => session, dispose: () => session?.dispose(), restart };
 * ```
 */
export interface HookControls {
  readonly current: () => Session | undefined;
  /** Disposes the current client, as an account switch does, and starts none. */
  readonly dispose: () => void;
  /** A new client for the selected user on the same storage, as after an account switch. */
  readonly restart: () => void;
}

/**
 * `window.__billing`, for the browser tests:
 * - `startConsume(externalId)`: `consume({ externalId })` on the current client; the outcome lands
 *   in `outcomes[externalId]` (`settledAt` is `Date.now()` when it settled);
 * - `dispose()` / `restart()`: see {@link HookControls};
 * - `countdown`: every value the countdown element showed, with `Date.now()`, since load;
 * - `watchCountdown()`: a new subscriber to the current client's `freePeriodRemaining$` (as a widget
 *   mounted mid-period would be); returns the array its values land in, each with `Date.now()`;
 * - `secondsLeft()`: `getCachedUsage().freePeriodRemaining` of the current client, read now;
 * - `recovered` / `recoveredDone`: the current client's `recovered$` (also drawn on the page);
 * - `status()` / `preview()`: `getStatus()` (error as its code) and `preview()` of the current client, read now;
 * - `shown`: every text the status, verdict, preview and export elements showed since load, in order.
 *
 * @example
 * ```ts
 * await page.evaluate(() => window.__billing.startConsume('op-1'));
 * await page.waitForFunction(() => window.__billing.outcomes['op-1'] !== undefined);
 * ```
 */
export interface BillingTestHooks {
  startConsume(externalId: string): void;
  readonly outcomes: Record<string, HookOutcome>;
  dispose(): void;
  restart(): void;
  readonly countdown: Array<{ readonly seconds: number; readonly at: number }>;
  watchCountdown(): Array<{ readonly seconds: number; readonly at: number }>;
  secondsLeft(): number;
  readonly recovered: Array<{ readonly externalId: string; readonly outcome: HookOutcome }>;
  recoveredDone: boolean;
  status(): HookStatus | null;
  preview(): PagePreview | null;
  readonly shown: Array<{ readonly id: string; readonly text: string; readonly at: number }>;
}

declare global {
  interface Window {
    __billing: BillingTestHooks;
  }
}

function resolved({ isBlacklisted, isCredit }: BillingConsumeResult): HookOutcome {
  return { ok: true, kind: isBlacklisted ? 'blacklisted' : isCredit ? 'credits' : 'free_count', settledAt: Date.now() };
}

function rejected(error: unknown): HookOutcome {
  const code = isBillingError(error) ? error.code : String(error);
  return { ok: false, kind: describeFailure(error).kind, code, settledAt: Date.now() };
}

/** The "Recovered after reload" panel: the consumes `recovered$` reported, then "done" when it completed. */
function recoveredPanel(): { list: HTMLOListElement; state: HTMLElement } {
  const section = document.createElement('section');
  section.style.gridColumn = '1 / -1';
  section.innerHTML =
    '<h2>Recovered after reload (<code>recovered$</code>)</h2>' +
    '<p data-testid="recovered-state">waiting</p><ol data-testid="recovered"></ol>';
  document.querySelector('main')?.append(section);
  return {
    list: section.querySelector('ol') as HTMLOListElement,
    state: section.querySelector('p') as HTMLElement,
  };
}

/**
 * Installs `window.__billing`; `attach` is called with each new session.
 * `showRecovered` adds the "Recovered after reload" panel (the page is reload-safe).
 *
 * @example
 * ```ts
 * const hooks = installTestHooks(controls, true);
 * hooks.attach(startSession(view, appKey, user));
 * ```
 */
export function installTestHooks(controls: HookControls, showRecovered: boolean): { attach(session: Session): void } {
  const panel = showRecovered ? recoveredPanel() : null;
  const hooks: BillingTestHooks = {
    startConsume(externalId) {
      const session = controls.current();
      if (session === undefined) throw new Error('no client on the page');
      session.billing.consume({ externalId }).then(
        (result) => (hooks.outcomes[externalId] = resolved(result)),
        (error: unknown) => (hooks.outcomes[externalId] = rejected(error)),
      );
    },
    outcomes: {},
    dispose: controls.dispose,
    restart: controls.restart,
    countdown: [],
    watchCountdown() {
      const seen: Array<{ seconds: number; at: number }> = [];
      controls.current()?.billing.freePeriodRemaining$.subscribe((seconds) => seen.push({ seconds, at: Date.now() }));
      return seen;
    },
    secondsLeft: () => controls.current()?.billing.getCachedUsage()?.freePeriodRemaining ?? 0,
    recovered: [],
    recoveredDone: false,
    status() {
      const status = controls.current()?.billing.getStatus();
      return status === undefined ? null : { ...status, error: status.error?.code ?? null };
    },
    preview: () => controls.current()?.billing.preview() ?? null,
    shown: [],
  };
  window.__billing = hooks;

  // What the user saw, read off the element rather than from a second subscription.
  const countdown = document.querySelector<HTMLElement>('[data-testid="countdown"]');
  if (countdown !== null) {
    new MutationObserver(() => {
      hooks.countdown.push({ seconds: Number(countdown.dataset['seconds']), at: Date.now() });
    }).observe(countdown, { attributes: true, attributeFilter: ['data-seconds'] });
  }

  // Each text set on these elements, even two within one task (a record per replaced text node),
  // so a test can say what the user could have seen before the first answer.
  for (const id of ['status', 'verdict', 'preview', 'export']) {
    const element = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    if (element === null) continue;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes))
          hooks.shown.push({ id, text: node.textContent ?? '', at: Date.now() });
      }
    }).observe(element, { childList: true });
  }

  return {
    attach(session) {
      const recovered: BillingTestHooks['recovered'] = [];
      Object.assign(hooks, { recovered, recoveredDone: false });
      panel?.list.replaceChildren();
      if (panel !== null) panel.state.textContent = 'waiting';
      session.billing.recovered$.subscribe({
        next: ({ externalId, outcome }) => {
          const entry = { externalId, outcome: outcome.ok ? resolved(outcome.result) : rejected(outcome.error) };
          recovered.push(entry);
          const item = document.createElement('li');
          item.dataset['testid'] = 'recovered-entry';
          item.dataset['externalId'] = externalId;
          item.dataset['kind'] = entry.outcome.kind;
          item.textContent = `${externalId}: ${entry.outcome.kind}`;
          panel?.list.append(item);
        },
        complete: () => {
          if (hooks.recovered !== recovered) return;
          hooks.recoveredDone = true;
          if (panel !== null) panel.state.textContent = 'done';
        },
      });
    },
  };
}
