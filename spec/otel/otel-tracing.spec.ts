import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import crossFetch from 'cross-fetch';
import { firstValueFrom, toArray } from 'rxjs';
import { billingEvents, createClient, reloadSafe, type Client, type ClientOptions, type FetchLike } from '../../lib';
import { otelTracing, type OtelTracingOptions } from '../../lib/otel';
import { startReferenceBackend, type ReferenceBackend, type ReferenceUser } from '../../lib/testing';
import { FakeLocks } from '../helpers/fake-locks';
import { MemoryStorage } from '../helpers/memory-storage';
import { VirtualClock } from '../helpers/virtual-clock';
import { until } from '../helpers/waiting';
import { makeUser } from '../testing/http-helpers';

// The adapter under the real SDK (sdk-trace-base, an in-memory exporter), over real HTTP against the
// reference backend, in real time: each span's name, attributes, events, status and duration.

const CONSUME = '/ai/v5/service/free_trial';
const BALANCE = '/ai/v1/credit/getBalance';
// The first attempt of each consume below takes at least this long: the span must cover it.
const FIRST_ATTEMPT_MS = 60;

let backend: ReferenceBackend;
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('billing-test');
const live: Client[] = [];

beforeAll(async () => {
  backend = await startReferenceBackend();
});
afterEach(() => {
  live.splice(0).forEach((client) => client.billing.dispose());
  exporter.reset();
});
afterAll(() => backend.close());

function traced(user: Partial<ReferenceUser>, options: Partial<ClientOptions> = {}, tracing?: OtelTracingOptions) {
  const made = makeUser(user);
  backend.addUser(made);
  const client = createClient({
    baseUrl: backend.url,
    appKey: 'poster',
    headers: { Authorization: `Bearer ${made.token}` },
    fetch: crossFetch as FetchLike,
    events: billingEvents(otelTracing({ tracer, ...tracing })),
    ...options,
  });
  live.push(client);
  return { client, user: made };
}

const spans = (name?: string): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((span) => name === undefined || span.name === name);
const only = (name: string): ReadableSpan => {
  const found = spans(name);
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const ms = ([seconds, nanos]: readonly [number, number]) => seconds * 1_000 + nanos / 1e6;
const durationMs = (span: ReadableSpan) => ms(span.duration);
const eventNames = (span: ReadableSpan) => span.events.map((event) => event.name);
const slowFirstAttempt = () => backend.failNext(CONSUME, 1, { kind: 'delay', ms: FIRST_ATTEMPT_MS });
// The backend is shared by the tests: a user's own POST, by its token.
const posted = (user: ReferenceUser) => () =>
  backend.requests().some((request) => request.path === CONSUME && request.token === user.token);

describe('otelTracing under sdk-trace-base, against the reference backend', () => {
  it('a consume of the free quota: one span, free_count, its duration covering the first attempt', async () => {
    const { client } = traced({ freeRemaining: 2, freeTotal: 2 });
    slowFirstAttempt();
    await client.billing.consume({ externalId: 'quota-1' });
    const span = only('consume credits');
    expect(span.attributes).toEqual({
      'billing.replayed': false,
      'billing.outcome': 'free_count',
      'billing.is_credit': false,
      'billing.attempts': 1,
    });
    expect(span.events).toEqual([]);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(durationMs(span)).toBeGreaterThanOrEqual(FIRST_ATTEMPT_MS - 1);
    // Ids only when asked for: none in the names, none in the attributes.
    expect(JSON.stringify(spans().map((s) => [s.name, s.attributes, s.events]))).not.toContain('quota-1');
  });

  it('a credit consume: credits, then the balance refresh it asks for, as its own span', async () => {
    const { client } = traced({ freeRemaining: 0, creditsPerUse: 2, creditsBalance: 10 }, {}, { recordIds: true });
    slowFirstAttempt();
    await client.billing.consume({ externalId: 'paid-1' });
    const span = only('consume credits');
    expect(span.attributes).toEqual({
      'billing.replayed': false,
      'billing.external_id': 'paid-1',
      'billing.outcome': 'credits',
      'billing.is_credit': true,
      'billing.attempts': 1,
    });
    expect(durationMs(span)).toBeGreaterThanOrEqual(FIRST_ATTEMPT_MS - 1);
    const refresh = only('refresh credits');
    expect(refresh.attributes).toEqual({ 'billing.attempts': 1 });
    expect(refresh.status.code).toBe(SpanStatusCode.UNSET);
    // The consume ends after the refresh it waits for.
    expect(ms(span.endTime)).toBeGreaterThanOrEqual(ms(refresh.endTime));
  });

  it('a consume in the free period: free_period, no request, no attempt', async () => {
    const { client } = traced({ freeRemaining: 2, freeTotal: 2 });
    await client.billing.consume();
    exporter.reset();
    await client.billing.consume();
    const span = only('consume credits');
    expect(span.attributes).toEqual({
      'billing.replayed': false,
      'billing.outcome': 'free_period',
      'billing.is_credit': false,
      'billing.attempts': 0,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a 503, then the retry: one span, a billing.retry event with the status and the delay, 2 attempts', async () => {
    const { client } = traced({ freeRemaining: 1, freeTotal: 1 });
    backend.failNext(CONSUME, 1, { kind: 'status', status: 503 });
    await client.billing.consume();
    const span = only('consume credits');
    expect(span.attributes).toMatchObject({ 'billing.outcome': 'free_count', 'billing.attempts': 2 });
    expect(span.events).toHaveLength(1);
    const retry = span.events[0] as ReadableSpan['events'][number];
    expect(retry.name).toBe('billing.retry');
    expect(retry.attributes).toEqual({
      'url.path': CONSUME,
      'billing.retry': 1,
      'billing.delay_ms': expect.any(Number),
      'error.type': 'http',
      'http.response.status_code': 503,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // The span covers the first attempt and the delay before the second.
    expect(durationMs(span)).toBeGreaterThanOrEqual(Number(retry.attributes?.['billing.delay_ms']) - 1);
    expect(ms(retry.time)).toBeGreaterThanOrEqual(ms(span.startTime));
  });

  it('a refused consume (20101): insufficient, and no ERROR: the app expects it', async () => {
    const { client } = traced({ freeRemaining: 0, creditsPerUse: 5, creditsBalance: 1 });
    slowFirstAttempt();
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'insufficient_credits' });
    const span = only('consume credits');
    expect(span.attributes).toEqual({
      'billing.replayed': false,
      'billing.outcome': 'insufficient',
      'billing.is_credit': false,
      'billing.attempts': 1,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(durationMs(span)).toBeGreaterThanOrEqual(FIRST_ATTEMPT_MS - 1);
  });

  it('an aborted consume: billing.canceled, no ERROR', async () => {
    const { client, user } = traced({ freeRemaining: 1, freeTotal: 1 });
    backend.failNext(CONSUME, 1, { kind: 'stall' });
    const controller = new AbortController();
    const consume = client.billing.consume({ signal: controller.signal });
    await until(posted(user), 'the POST to reach the backend');
    controller.abort();
    await expect(consume).rejects.toMatchObject({ code: 'aborted' });
    const span = only('consume credits');
    expect(span.attributes).toEqual({
      'billing.replayed': false,
      'billing.canceled': 'aborted',
      'billing.attempts': 1,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a consume that fails: ERROR, error.type and the HTTP status', async () => {
    const { client } = traced({ freeRemaining: 1, freeTotal: 1 }, { retries: 0 });
    backend.failNext(CONSUME, 1, { kind: 'status', status: 500 });
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'http' });
    const span = only('consume credits');
    expect(span.attributes).toEqual({
      'billing.replayed': false,
      'error.type': 'http',
      'http.response.status_code': 500,
      'billing.attempts': 1,
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'http' });
  });

  it('get usage: one span for both GETs; a 401 refreshed by onUnauthorized is its billing.reauthorize event', async () => {
    let token = 'expired';
    const { client, user } = traced(
      { freeRemaining: 1 },
      { headers: () => ({ Authorization: `Bearer ${token}` }), onUnauthorized: () => void (token = user.token) },
    );
    await client.billing.getUsage();
    const span = only('get usage');
    expect(span.attributes).toEqual({ 'billing.attempts': 2 });
    expect(eventNames(span)).toContain('billing.reauthorize');
    expect(span.events[0]?.attributes).toMatchObject({ 'http.response.status_code': 401 });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a reload replay: its own span, billing.replayed and its origin, never a failure of the app', async () => {
    const locks = new FakeLocks();
    const storage = new MemoryStorage();
    const user = makeUser({ freeRemaining: 0, creditsPerUse: 2, creditsBalance: 10 });
    backend.addUser(user);
    const page = (tab: number, tracing?: ReturnType<typeof otelTracing>) => {
      const client = createClient({
        baseUrl: backend.url,
        appKey: 'poster',
        headers: { Authorization: `Bearer ${user.token}` },
        scheduler: new VirtualClock(),
        storage: reloadSafe(storage, { perTab: true, locks: locks.forTab(tab) }),
        retries: 0,
        ...(tracing ? { events: billingEvents(tracing) } : {}),
      });
      live.push(client);
      return client;
    };
    backend.failNext(CONSUME, 1, { kind: 'stall' });
    void page(0)
      .billing.consume({ externalId: 'export-42' })
      .catch(() => undefined);
    await until(posted(user), 'the POST to reach the backend');
    locks.kill(0);
    const reloaded = page(1, otelTracing({ tracer, recordIds: true }));
    await firstValueFrom(reloaded.billing.recovered$.pipe(toArray()));
    const span = only('consume credits');
    expect(span.attributes).toEqual({
      'billing.replayed': true,
      'billing.origin': 'reload',
      'billing.external_id': 'export-42',
      'billing.outcome': 'credits',
      'billing.is_credit': true,
      'billing.attempts': 1,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(spans().map((s) => s.name)).toEqual(expect.arrayContaining(['consume credits', 'refresh credits']));
    expect(backend.requests().some((request) => request.path === BALANCE && request.token === user.token)).toBe(true);
  });
});
