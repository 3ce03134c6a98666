// docs/telemetry.md "Events for logs and telemetry: billingEvents()", type-checked;
// the app's analytics and metrics are declared.
import { billingEvents, createClient, type BillingEvent } from 'unified-billing';

declare const analytics: { track(name: string, fields: Record<string, unknown>): void };
declare const metrics: { increment(name: string, tags: Record<string, unknown>): void };

function track(event: BillingEvent): void {
  switch (event.type) {
    case 'consume:charged':
      analytics.track('billing_charged', { externalId: event.externalId, credit: event.isCredit });
      break;
    case 'consume:failed':
    case 'refresh:failed':
      analytics.track('billing_error', { type: event.type, code: event.error.code, status: event.error.status });
      break;
    case 'request:retry':
      metrics.increment('billing.retry', { path: event.path, attempt: event.attempt });
      break;
  }
}

const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  events: billingEvents({ onEvent: track }),
});
// Or as a stream, for a debug panel: hot, no replay, completes on dispose().
client.billing.events$.subscribe((event) => console.debug('[billing]', event.type, event.at));
