import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { billingEvents } from '../../lib';
import { otelTracing } from '../../lib/otel';
import { Browser, type Page } from '../helpers/browser';

// A dead tab's POST sent again under the consume lock, traced on the tab that sends it: the click's
// span holds the lock (billing.lock_acquired) and shows the replay (billing.replay); the replay is a
// `consume credits` span of its own, its child, marked replayed with origin `tab`.
let browser: Browser;
afterEach(() => browser.close());

it("a tab's replay is an event and a child of the consume that holds the lock", async () => {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
  browser = new Browser();
  const tracing = otelTracing({ tracer, recordIds: true });
  const [a, b] = [
    browser.open({ sync: true }),
    browser.open({ sync: true, client: { events: billingEvents(tracing) } }),
  ] as [Page, Page];
  await Promise.all([a, b].map((tab) => tab.billing.getUsage()));
  await browser.settle();
  exporter.reset();
  browser.hold = { at: 'requests', page: a };
  void a.billing.consume({ externalId: 'a-1' }).catch(() => undefined);
  await browser.settle();
  const clicked = b.billing.consume({ externalId: 'b-1' });
  await browser.settle();
  browser.kill(a);
  for (let i = 0; i < 5; i++) await browser.advance(1_000);
  await clicked;
  await browser.settle();

  const consumes = exporter.getFinishedSpans().filter((span) => span.name === 'consume credits');
  const click = consumes.find((span) => span.attributes['billing.external_id'] === 'b-1');
  const replay = consumes.find((span) => span.attributes['billing.external_id'] === 'a-1');
  expect(click?.attributes).toMatchObject({ 'billing.replayed': false, 'billing.outcome': 'free_period' });
  // The lock first: its answer names the dead tab's POST, which is sent again under it.
  expect(click?.events.map((event) => event.name)).toEqual(['billing.lock_acquired', 'billing.replay']);
  expect(click?.events[1]?.attributes).toEqual({ 'billing.origin': 'tab', 'billing.external_id': 'a-1' });
  expect(replay?.attributes).toMatchObject({
    'billing.replayed': true,
    'billing.origin': 'tab',
    'billing.outcome': 'free_count',
    'billing.attempts': 1,
  });
  expect(replay?.parentSpanContext?.spanId).toBe(click?.spanContext().spanId);
  expect(replay?.spanContext().traceId).toBe(click?.spanContext().traceId);
});
