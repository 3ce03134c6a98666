import { createClient, type BillingModule, type Client } from '../../lib';
import { describeFailure, describeResult, type ConsumeEntry } from './consume-log';
import { clientFeatures, readPageOptions } from './page-options';
import type { View } from './view';
import { describeWire, WireLog } from './wire-log';

/** One demo user signed in: a client of its own, drawn on the view. */
export interface Session {
  exportOnce(): Promise<void>;
  dispose(): void;
  /** The client's billing module, for the test hooks (see test-hooks.ts). */
  readonly billing: BillingModule;
}

/**
 * Creates the client for one user and binds the page to it: `usage$` and
 * `freePeriodRemaining$` drive the panels, `check()` is re-read on each of
 * their emissions.
 */
export function startSession(view: View, appKey: string, user: { token: string; label: string }): Session {
  const wire = new WireLog();
  const client: Client = createClient({
    baseUrl: window.location.origin,
    appKey,
    headers: { Authorization: `Bearer ${user.token}` },
    fetch: wire.fetch,
    // `?sync=broadcast` shares the free period and usage with other tabs (the two-page browser test);
    // `?storage=session` makes the client reload-safe (see page-options.ts).
    ...clientFeatures(readPageOptions(window.location.search)),
  });
  const { billing } = client;
  const redraw = () => view.showVerdict(billing.check());
  view.showUsage(null);
  view.showWarning(false);
  redraw();
  const subscriptions = [
    billing.usage$.subscribe((usage) => {
      view.showUsage(usage);
      redraw();
    }),
    billing.freePeriodRemaining$.subscribe((seconds) => {
      view.showCountdown(seconds);
      redraw();
    }),
  ];
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
        log(describeFailure(error), mark);
      }
    },
    dispose() {
      disposed = true;
      subscriptions.forEach((subscription) => subscription.unsubscribe());
      billing.dispose();
    },
  };
}
