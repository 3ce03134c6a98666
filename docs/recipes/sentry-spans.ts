// The billing events as Sentry spans, with no OpenTelemetry: the same operations as
// `unified-billing/otel` (`consume credits`, `get usage`, `refresh credits`), from their start
// event to their end event. `Sentry.startSpan(options, callback)` times a callback, which suits
// wrapping one call (last lines); over events, a span is started by one event and ended by another,
// which is what `startInactiveSpan` is for.
import * as Sentry from '@sentry/browser';
import { billingEvents, createClient, type BillingEvent } from 'unified-billing';

type Span = ReturnType<typeof Sentry.startInactiveSpan>;

// The spans open: a consume by its number (`call`), a usage fetch or a refresh oldest first.
const consumes = new Map<number, Span>();
const fetches: Record<'usage' | 'refresh', Span[]> = { usage: [], refresh: [] };
const seconds = (event: BillingEvent) => event.wallTime / 1000;
const start = (name: string, event: BillingEvent) =>
  Sentry.startInactiveSpan({ name, op: 'billing', startTime: seconds(event) });
const end = (span: Span | undefined, event: BillingEvent, outcome: string, failed = false) => {
  span?.setAttribute('billing.outcome', outcome);
  // A refusal (20101), an abort or a dispose is no error: only a failure of billing is.
  if (failed) span?.setStatus({ code: 2, message: outcome });
  span?.end(seconds(event));
};
const closeConsume = (event: BillingEvent & { readonly call: number }, outcome: string, failed = false) => {
  end(consumes.get(event.call), event, outcome, failed);
  consumes.delete(event.call);
};

function toSentry(event: BillingEvent): void {
  switch (event.type) {
    case 'consume:started':
    case 'replay:started':
      consumes.set(event.call, start('consume credits', event));
      break;
    case 'usage:started':
    case 'refresh:started':
      fetches[event.type === 'usage:started' ? 'usage' : 'refresh'].push(
        start(event.type === 'usage:started' ? 'get usage' : 'refresh credits', event),
      );
      break;
    case 'consume:charged':
      closeConsume(event, event.isCredit ? 'credits' : 'free_count');
      break;
    case 'consume:free':
      closeConsume(event, 'free_period');
      break;
    case 'consume:denied':
      closeConsume(event, 'insufficient');
      break;
    case 'consume:blacklisted':
      closeConsume(event, 'blacklisted');
      break;
    case 'consume:canceled':
      closeConsume(event, event.reason);
      break;
    case 'consume:failed':
      closeConsume(event, event.error.code, true);
      break;
    case 'replay:settled':
      closeConsume(event, event.outcome.ok ? 'replayed' : event.outcome.error.code, !event.outcome.ok);
      break;
    case 'request:retry':
      Sentry.addBreadcrumb({
        category: 'billing.retry',
        data: { path: event.path, attempt: event.attempt, delayMs: event.delayMs, status: event.status },
      });
      break;
    case 'usage:loaded':
    case 'refresh:loaded':
      end(fetches[event.type === 'usage:loaded' ? 'usage' : 'refresh'].shift(), event, 'loaded');
      break;
    case 'usage:failed':
    case 'refresh:failed':
      end(fetches[event.type === 'usage:failed' ? 'usage' : 'refresh'].shift(), event, event.error.code, true);
      break;
    case 'usage:canceled':
    case 'refresh:canceled':
      end(fetches[event.type === 'usage:canceled' ? 'usage' : 'refresh'].shift(), event, event.reason);
      break;
  }
}

Sentry.init({ dsn: 'https://public@sentry.example.com/1', tracesSampleRate: 1 });
export const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  events: billingEvents({ onEvent: toSentry }),
});

// One call instead, timed by startSpan around it (no events needed, but no retry or replay either).
export const exportPoster = () =>
  Sentry.startSpan({ name: 'export poster', op: 'ui.action' }, () => client.billing.consume());
