// Billing spans from the browser to an OpenTelemetry collector (OTLP over HTTP), beside the
// fetch spans of the app's own requests. `unified-billing/otel` needs only `@opentelemetry/api`;
// the SDK, the exporter and the fetch instrumentation are the app's choice, set up once:
//
//   npm install @opentelemetry/api @opentelemetry/sdk-trace-web \
//     @opentelemetry/exporter-trace-otlp-http @opentelemetry/instrumentation @opentelemetry/instrumentation-fetch
//
// The collector must accept the page's origin (CORS on its OTLP/HTTP receiver), and the billing
// backend must allow the `traceparent` header if you propagate it there (`propagateTraceHeaderCorsUrls`).
import { billingEvents, createClient } from 'unified-billing';
import { otelTracing } from 'unified-billing/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { FetchInstrumentation } from '@opentelemetry/instrumentation-fetch';
import { BatchSpanProcessor, WebTracerProvider } from '@opentelemetry/sdk-trace-web';

declare const token: string;

const provider = new WebTracerProvider({
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: 'https://otel.example.com/v1/traces' }))],
});
// The global provider: otelTracing() without a `tracer` takes its tracer from it.
provider.register();
registerInstrumentations({ instrumentations: [new FetchInstrumentation()] });

const tracing = otelTracing();
export const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  headers: { Authorization: `Bearer ${token}` },
  // Every consume, usage fetch and balance refresh is a span (`consume credits`, `get usage`, `refresh credits`).
  events: billingEvents(tracing),
  // Each request is sent inside its billing span, so the fetch instrumentation's span is its child.
  fetch: tracing.fetch,
});

// Spans are batched: flush them before the page goes (a tab closed, a navigation).
addEventListener('pagehide', () => void provider.forceFlush());
