import { SpanStatusCode, context, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { BillingEvent } from '../shared/billing-event';
import type { FetchLike } from '../shared/types';

// Every field an event may have, optional, with the type the events give it: the events are read by the
// parts of their type, `kind:what`, rather than narrowed one by one.
type AnyKey<E> = E extends unknown ? keyof E : never;
type FieldOf<E, K extends PropertyKey> = E extends { readonly [key in K]: infer V } ? V : never;
type Fields = { readonly [K in AnyKey<BillingEvent>]?: FieldOf<BillingEvent, K> };

// The span each operation's start event opens.
const NAMES: Readonly<Record<string, string>> = {
  consume: 'consume credits',
  replay: 'consume credits',
  usage: 'get usage',
  refresh: 'refresh credits',
};
// `billing.outcome` of an end event by its `what`: a charge's (and a replay's answer) is read from it,
// a load has none.
const OUTCOMES: Readonly<Record<string, string>> = {
  free: 'free_period',
  denied: 'insufficient',
  blacklisted: 'blacklisted',
  loaded: '',
};

// The context with `span` active: a request sent in it, or a span started in it, is its child.
const within = (span: Span) => trace.setSpan(context.active(), span);

/**
 * Options of `otelTracing()`.
 *
 * @example
 * ```ts
 * const options: OtelTracingOptions = { tracer: trace.getTracer('checkout'), recordIds: true };
 * ```
 */
export interface OtelTracingOptions {
  /** The tracer the spans come from; `trace.getTracer('unified-billing')` of the registered provider when omitted. */
  readonly tracer?: Tracer;
  /**
   * Whether spans carry `billing.external_id` (the id of each consume):
   * `false` by default, as an id may tie a trace to a user's action.
   */
  readonly recordIds?: boolean;
  /** The fetch that `fetch` calls; the platform's `fetch` at the time of each call when omitted. */
  readonly fetch?: FetchLike;
}

/**
 * What `otelTracing()` gives: a listener for the events and a fetch for the client.
 *
 * @example
 * ```ts
 * const tracing: OtelTracing = otelTracing();
 * client.billing.events$.subscribe(tracing.onEvent);
 * ```
 */
export interface OtelTracing {
  /** Hears every `BillingEvent`: `billingEvents(tracing)`, or called from the app's own `onEvent`. */
  readonly onEvent: (event: BillingEvent) => void;
  /**
   * A fetch for `createClient({ fetch })` that sends each request inside the span it belongs to, so the
   * app's fetch instrumentation (OpenTelemetry's, or any that reads the active context) makes its
   * span a child of `consume credits`, `get usage` or `refresh credits`. Optional: without it the spans
   * are the same, with no HTTP child.
   */
  readonly fetch: FetchLike;
}

/**
 * OpenTelemetry spans from the billing events, with no change to the client:
 * `consume credits` for each consume (and each replay of a consume another
 * page left, `billing.replayed`), `get usage`, `refresh credits`; attributes
 * `billing.outcome` (`free_period`, `free_count`, `credits`, `insufficient`,
 * `blacklisted`), `billing.is_credit`, `billing.attempts`, `billing.replayed`,
 * `error.type`, `http.response.status_code`; span events for each retry
 * (`billing.retry`), a 401 re-send (`billing.reauthorize`), the cross-tab lock
 * (`billing.lock_acquired`) and a tab's replay (`billing.replay`). Status ERROR
 * only for an error of billing: never a refusal (20101), an abort or a
 * dispose. Needs `@opentelemetry/api` (an optional peer dependency); one
 * `otelTracing()` per client.
 *
 * @example
 * ```ts
 * import { billingEvents, createClient } from 'unified-billing';
 * import { otelTracing } from 'unified-billing/otel';
 *
 * const tracing = otelTracing();
 * const client = createClient({
 *   baseUrl,
 *   appKey: 'poster',
 *   events: billingEvents({ onEvent: tracing.onEvent }),
 *   fetch: tracing.fetch, // optional: the fetch instrumentation's span becomes a child of the billing span
 * });
 * ```
 */
export function otelTracing(options: OtelTracingOptions = {}): OtelTracing {
  const { tracer = trace.getTracer('unified-billing'), recordIds = false } = options;
  // Each span runs from its start event to its end event, at the events' wall time.
  // The consumes and replays open, by their `call`, each with the id it is known by once it has one.
  const consumes = new Map<number, { readonly span: Span; externalId: string | null; readonly replayed: boolean }>();
  const fetches: Record<string, Span[]> = { usage: [], refresh: [] };
  const open = () => [...consumes.values()];
  // The app's oldest consume open: the one whose turn it is, which holds the lock.
  const oldest = () => open().find((consume) => !consume.replayed);
  const newest = (spans: Span[] | undefined) => spans?.[spans.length - 1];
  // A GET has no id (`null` from the fetch, none on a usage or refresh event).
  const spanOf = (path: string, externalId?: string | null) => {
    if (!externalId) return newest(fetches[/getBalance$/.test(path) ? 'refresh' : 'usage']) ?? newest(fetches['usage']);
    // A POST's consume: by its id, else the one whose turn it is, which has none yet.
    const found = open().find((consume) => consume.externalId === externalId) ?? oldest();
    if (found && !found.externalId) found.externalId = externalId;
    return found?.span;
  };

  const onEvent = (event: BillingEvent): void => {
    const e: Fields = event;
    const at = e.wallTime;
    const [kind, what] = event.type.split(':') as [string, string];
    const name = NAMES[kind];
    const consume = consumes.get(e.call as number);
    // Every span and span event of a consume carries its id, with `recordIds`.
    const facts: Attributes = recordIds && e.externalId ? { 'billing.external_id': e.externalId } : {};
    if (what === 'started' && name) {
      if (e.call === undefined) return void fetches[kind]?.push(tracer.startSpan(name, { startTime: at }));
      // A tab's replay runs under the lock the app's oldest consume holds: an event and a child of its span.
      const holder = e.origin === 'tab' ? oldest() : undefined;
      holder?.span.addEvent('billing.replay', { 'billing.origin': 'tab', ...facts }, at);
      facts['billing.replayed'] = kind === 'replay';
      if (e.origin) facts['billing.origin'] = e.origin;
      const span = tracer.startSpan(name, { startTime: at, attributes: facts }, holder && within(holder.span));
      consumes.set(e.call, { span, externalId: e.externalId as string | null, replayed: kind === 'replay' });
    } else if (kind === 'lock') {
      consume?.span.addEvent('billing.lock_acquired', {}, at);
    } else if (kind === 'request') {
      const retry = what === 'retry';
      const attributes: Attributes = { 'url.path': e.path };
      // A retry after no answer has no status; a 401 re-send's is 401.
      if (e.status !== null) attributes['http.response.status_code'] = e.status ?? 401;
      if (retry)
        Object.assign(attributes, { 'billing.retry': e.attempt, 'billing.delay_ms': e.delayMs, 'error.type': e.code });
      spanOf(e.path as string, e.externalId)?.addEvent(retry ? 'billing.retry' : 'billing.reauthorize', attributes, at);
    } else if (name && e.attempts !== undefined) {
      // An end: of a consume or replay (by its number), else of the oldest fetch of its kind.
      const span = consume?.span ?? fetches[kind]?.shift();
      if (!span) return;
      consumes.delete(e.call as number);
      // A replay's outcome: its answer, or its error.
      const replay = e.outcome;
      const error = replay && !replay.ok ? replay.error : e.error;
      const code = e.reason ?? error?.code;
      const answer: { isCredit?: boolean; isBlacklisted?: boolean } = replay?.ok ? replay.result : e;
      // A refusal is an outcome, not an error.
      const outcome =
        code === 'insufficient_credits'
          ? 'insufficient'
          : code
            ? ''
            : (OUTCOMES[what] ?? (answer.isBlacklisted ? 'blacklisted' : answer.isCredit ? 'credits' : 'free_count'));
      if (outcome) Object.assign(facts, { 'billing.outcome': outcome, 'billing.is_credit': outcome === 'credits' });
      else if (code) {
        const canceled = /^(aborted|disposed)$/.test(code);
        facts[canceled ? 'billing.canceled' : 'error.type'] = code;
        if (error?.status !== undefined) facts['http.response.status_code'] = error.status;
        if (!canceled) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
      }
      facts['billing.attempts'] = e.attempts;
      span.setAttributes(facts);
      span.end(at);
    }
  };
  return {
    onEvent,
    // Each request inside the span it is for, when one is open: a POST's consume span by the id it
    // carries; a GET's, the newest usage fetch or refresh open on its path. The platform's fetch is read
    // at each call when the app gives none.
    fetch: (input, init) => {
      const send = options.fetch ?? globalThis.fetch;
      // Only a consume's POST has a body: the JSON the transport wrote, with its `external_id`.
      const body = init?.body;
      const span = spanOf(input.split('?')[0] as string, body ? JSON.parse(body as string).external_id : null);
      return span ? context.with(within(span), () => send(input, init)) : send(input, init);
    },
  };
}
