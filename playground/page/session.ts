import { filter, firstValueFrom } from 'rxjs';
import { billingEvents, createClient, type BillingModule, type Client } from '../../lib';
import { reduxDevtools } from '../../lib/devtools';
import { describeFailure, describeResult, type ConsumeEntry } from './consume-log';
import { liveChanges } from './live-changes';
import { clientFeatures, readPageOptions } from './page-options';
import type { View } from './view';
import { describeWire, WireLog } from './wire-log';

/** One demo user signed in: a client of its own, drawn on the view. */
export interface Session {
  exportOnce(): Promise<void>;
  /** Tops the user up on the server, as another device would, and logs what this page fetched until it shows. */
  topUpElsewhere(): Promise<void>;
  dispose(): void;
  /** The client's billing module, for the test hooks (see test-hooks.ts). */
  readonly billing: BillingModule;
}

/**
 * Creates the client for one user and binds the page to it: `usage$`,
 * `freePeriodRemaining$` and `status$` drive the panels, `events$` the events
 * log, and `check()` and `preview()` are re-read on each of their emissions.
 */
export function startSession(view: View, appKey: string, user: { token: string; label: string }): Session {
  const wire = new WireLog();
  const client: Client = createClient({
    baseUrl: window.location.origin,
    appKey,
    headers: { Authorization: `Bearer ${user.token}` },
    fetch: wire.fetch,
    // With the Redux DevTools extension installed, its panel shows each action and the state
    // after it, one instance per signed-in user (read-only; without the extension, nothing).
    devtools: reduxDevtools({ name: `playground: ${user.label}` }),
    // The events log reads events$, which emits only with the events feature.
    events: billingEvents(),
    // `?sync=broadcast` shares the free period and usage with other tabs (the two-page browser test);
    // `?storage=session` makes the client reload-safe; focus, online and the backend's pushed
    // changes refetch unless `?refetch=off` (or `?live=off` for the pushes), `?interval=<ms>` adds
    // a timer (see page-options.ts).
    ...clientFeatures(readPageOptions(window.location.search), liveChanges(user.token)),
  });
  const { billing } = client;
  // check() and preview() are re-read on every usage$, countdown and status$ emission:
  // a free-period tick, a refetch or the first answer can each change them.
  const redraw = () => {
    view.showVerdict(billing.check(), billing.getStatus().loaded);
    view.showPreview(billing.preview());
  };
  const showStatus = () => view.showStatus(billing.getStatus(), performance.now());
  view.showUsage(null);
  view.showWarning(false);
  view.clearEvents();
  redraw();
  const subscriptions = [
    // events$ is hot: subscribed before the first getUsage() so `usage:loaded` is seen.
    billing.events$.subscribe((event) => view.addEvent(event)),
    billing.status$.subscribe(() => {
      showStatus();
      redraw();
    }),
    billing.usage$.subscribe((usage) => {
      view.showUsage(usage);
      redraw();
    }),
    billing.freePeriodRemaining$.subscribe((seconds) => {
      view.showCountdown(seconds);
      redraw();
    }),
  ];
  // "fetched N s ago" ages without any emission.
  const ageTicker = window.setInterval(showStatus, 1000);
  let disposed = false;
  // A disposed session's late answers belong to no one on screen.
  const log = (entry: ConsumeEntry, mark: number) => {
    if (!disposed) view.addLogEntry(user.label, entry, describeWire(wire.since(mark)));
  };
  const loading = wire.mark();
  billing.getUsage().catch((error: unknown) => log(describeFailure(error), loading));

  return {
    billing,
    async exportOnce() {
      const mark = wire.mark();
      try {
        const result = await billing.consume();
        const entry = describeResult(result, wire.since(mark));
        if (!disposed) view.showWarning(entry.kind === 'blacklisted');
        log(entry, mark);
      } catch (error) {
        const entry = describeFailure(error);
        log(entry, mark);
        // A 20101 carries no balance and the cache keeps the old one (docs/decisions.md,
        // "20101 and the cache"): fetch it, so the preview says what the user really has.
        if (entry.kind === 'insufficient' && !disposed) billing.refreshCredits().catch(() => undefined);
      }
    },
    async topUpElsewhere() {
      const mark = wire.mark();
      // Not through the wire log: this request stands for another device.
      const answer = await window.fetch('/playground/top-up', { method: 'POST', body: user.token });
      const { balance } = (await answer.json()) as { balance: number };
      // Shown once the pushed change's fetch lands: the log lists what this page sent for it.
      await firstValueFrom(billing.usage$.pipe(filter((usage) => usage.creditsBalance === balance)));
      log({ kind: 'pushed', title: 'Top-up from another device', detail: `pushed; balance now ${balance}` }, mark);
    },
    dispose() {
      disposed = true;
      window.clearInterval(ageTicker);
      subscriptions.forEach((subscription) => subscription.unsubscribe());
      billing.dispose();
    },
  };
}
