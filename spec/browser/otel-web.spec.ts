import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import { launchChromium } from './chromium';
import { bundlePage } from './routed-page';

// unified-billing/otel under the web SDK (sdk-trace-web) in Chromium, with OpenTelemetry's fetch
// instrumentation: one consume is one `consume credits` span, and the POST's fetch span is its child,
// because the adapter's `fetch` sends the request inside the consume's span.
const TOKEN = 'otel-user';
const USER = { token: TOKEN, freeRemaining: 2, freeTotal: 2, creditsPerUse: 5, creditsBalance: 20 };

const PAGE_SCRIPT = `
import { billingEvents, createClient } from './lib';
import { otelTracing } from './lib/otel';
import { InMemorySpanExporter, SimpleSpanProcessor, WebTracerProvider } from '@opentelemetry/sdk-trace-web';
import { FetchInstrumentation } from '@opentelemetry/instrumentation-fetch';
import { registerInstrumentations } from '@opentelemetry/instrumentation';

const exporter = new InMemorySpanExporter();
const provider = new WebTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
registerInstrumentations({ instrumentations: [new FetchInstrumentation()] });

window.runTraced = async (baseUrl, token) => {
  const tracing = otelTracing();
  const client = createClient({
    baseUrl,
    appKey: 'otel',
    headers: { Authorization: 'Bearer ' + token },
    events: billingEvents(tracing),
    fetch: tracing.fetch,
  });
  await client.billing.consume({ externalId: 'traced-1' });
  client.billing.dispose();
  // The fetch instrumentation ends its span once the resource timing is in (up to 300 ms).
  for (let i = 0; i < 40 && exporter.getFinishedSpans().length < 2; i++) await new Promise((r) => setTimeout(r, 50));
  const ms = ([s, ns]) => s * 1000 + ns / 1e6;
  return exporter.getFinishedSpans().map((span) => ({
    name: span.name,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? span.parentSpanId,
    attributes: span.attributes,
    start: ms(span.startTime),
    end: ms(span.endTime),
  }));
};
`;

interface SpanView {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Record<string, unknown>;
  readonly start: number;
  readonly end: number;
}

let pageServer: Server;
let pageOrigin: string;
let browser: Browser;
let page: Page;
let backend: ReferenceBackend;

beforeAll(async () => {
  const script = await bundlePage(PAGE_SCRIPT);
  pageServer = createServer((req, res) => {
    if (req.url === '/app.js') return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><script src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  backend = await startReferenceBackend({ users: [USER] });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${pageOrigin}/`);
  await page.waitForFunction(() => 'runTraced' in window);
});

afterAll(async () => {
  await browser?.close();
  await backend?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

describe('unified-billing/otel under sdk-trace-web in Chromium', () => {
  test('one consume: one consume credits span, and the fetch of its POST as its child', async () => {
    const spans = await page.evaluate(
      ([url, token]) =>
        (window as unknown as { runTraced: (u: string, t: string) => Promise<SpanView[]> }).runTraced(url, token),
      [backend.url, TOKEN] as const,
    );
    const consumes = spans.filter((span) => span.name === 'consume credits');
    expect(consumes).toHaveLength(1);
    const consume = consumes[0] as SpanView;
    expect(consume.attributes).toEqual({
      'billing.replayed': false,
      'billing.outcome': 'free_count',
      'billing.is_credit': false,
      'billing.attempts': 1,
    });
    const children = spans.filter((span) => span.parentSpanId === consume.spanId);
    expect(children).toHaveLength(1);
    const fetchSpan = children[0] as SpanView;
    expect(fetchSpan.traceId).toBe(consume.traceId);
    expect(JSON.stringify(fetchSpan.attributes)).toContain('/ai/v5/service/free_trial');
    expect(JSON.stringify(fetchSpan.attributes)).toMatch(/POST/);
    // The request happens inside the consume (its wall-clock times are ms, the fetch's finer).
    expect(fetchSpan.start).toBeGreaterThanOrEqual(consume.start - 1);
    expect(backend.charges()).toEqual([expect.objectContaining({ externalId: 'traced-1' })]);
  });
});
