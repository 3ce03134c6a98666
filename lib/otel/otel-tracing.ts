import type { Tracer } from '@opentelemetry/api';
import type { BillingEvent } from '../shared/billing-event';
import type { FetchLike } from '../shared/types';
import { spanBook } from './spans';

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
  const spans = spanBook(options.tracer, options.recordIds);
  return {
    onEvent: spans.onEvent,
    // The platform's fetch is read at each call when the app gives none.
    fetch: (input, init) => spans.send(options.fetch ?? globalThis.fetch, input, init),
  };
}
