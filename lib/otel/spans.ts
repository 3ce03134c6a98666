import { SpanStatusCode, context, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { BillingEvent } from '../shared/billing-event';
import type { ConsumeOutcome } from '../shared/types';

// Every field an event may have: the events are read by the part of their type, `kind:what`.
interface Fields {
  readonly type: string;
  readonly wallTime: number;
  readonly call?: number;
  readonly externalId?: string | null;
  readonly origin?: string;
  readonly attempts?: number;
  readonly isCredit?: boolean;
  readonly reason?: string;
  readonly error?: { readonly code: string; readonly status?: number | undefined };
  readonly outcome?: ConsumeOutcome;
  readonly path?: string;
  readonly attempt?: number;
  readonly delayMs?: number;
  readonly code?: string;
  readonly status?: number | null;
}

// A consume's span, with the id it is known by once it has one.
interface ConsumeSpan {
  readonly span: Span;
  externalId: string | null;
  readonly replayed: boolean;
}

// The span each operation's start event opens.
const NAMES: Readonly<Record<string, string>> = {
  consume: 'consume credits',
  replay: 'consume credits',
  usage: 'get usage',
  refresh: 'refresh credits',
};
// `billing.outcome` of an end event that is an answer without a charge.
const OUTCOMES: Readonly<Record<string, string>> = {
  free: 'free_period',
  denied: 'insufficient',
  blacklisted: 'blacklisted',
};

/** The spans open for one client's events, and how a request finds the span it is sent for. */
export interface SpanBook {
  readonly onEvent: (event: BillingEvent) => void;
  /** A POST's consume span by the id it carries; a GET's, the newest usage fetch or refresh open on its path. */
  readonly spanOf: (path: string, externalId: string | null) => Span | undefined;
}

/**
 * The spans of one client's events: `consume credits` per consume or replay,
 * `get usage` per usage fetch, `refresh credits` per balance refresh, each
 * from its start event to its end event, at the events' wall time. A retry, a
 * 401 re-send, the cross-tab lock and a tab's replay are events of their span;
 * only an error of billing sets the status to ERROR (never a refusal, an abort
 * or a dispose). Ids are attributes, and only with `recordIds`.
 */
export function spanBook(tracer: Tracer, recordIds: boolean): SpanBook {
  const consumes = new Map<number, ConsumeSpan>();
  const fetches: Record<string, Span[]> = { usage: [], refresh: [] };
  const ids = (externalId?: string | null): Attributes =>
    recordIds && externalId ? { 'billing.external_id': externalId } : {};
  // The app's oldest consume open: the one whose turn it is, which holds the lock.
  const oldest = () => [...consumes.values()].find((consume) => !consume.replayed);
  const newest = (spans: Span[] | undefined) => spans?.[spans.length - 1];
  const spanOf = (path: string, externalId: string | null) => {
    if (externalId === null)
      return newest(fetches[/getBalance$/.test(path) ? 'refresh' : 'usage']) ?? newest(fetches['usage']);
    // A POST's consume: by its id, else the one whose turn it is, which has none yet.
    const found = [...consumes.values()].find((consume) => consume.externalId === externalId) ?? oldest();
    if (found?.externalId === null) found.externalId = externalId;
    return found?.span;
  };

  const onEvent = (event: BillingEvent): void => {
    const e: Fields = event;
    const at = e.wallTime;
    const [kind, what] = e.type.split(':') as [string, string];
    const name = NAMES[kind];
    const consume = e.call === undefined ? undefined : consumes.get(e.call);
    if (what === 'started' && name) {
      if (e.call === undefined) return void fetches[kind]?.push(tracer.startSpan(name, { startTime: at }));
      // A tab's replay runs under the lock the app's oldest consume holds: an event and a child of its span.
      const holder = e.origin === 'tab' ? oldest() : undefined;
      holder?.span.addEvent('billing.replay', { 'billing.origin': 'tab', ...ids(e.externalId) }, at);
      const attributes: Attributes = { 'billing.replayed': kind === 'replay', ...ids(e.externalId) };
      if (e.origin) attributes['billing.origin'] = e.origin;
      const parent = holder && trace.setSpan(context.active(), holder.span);
      const span = tracer.startSpan(name, { startTime: at, attributes }, parent);
      consumes.set(e.call, { span, externalId: e.externalId ?? null, replayed: kind === 'replay' });
    } else if (kind === 'lock') {
      consume?.span.addEvent('billing.lock_acquired', {}, at);
    } else if (kind === 'request') {
      const facts: Attributes = { 'url.path': e.path, 'http.response.status_code': e.status ?? 401 };
      if (what === 'retry') {
        Object.assign(facts, { 'billing.retry': e.attempt, 'billing.delay_ms': e.delayMs, 'error.type': e.code });
        if (e.status === null) delete facts['http.response.status_code'];
      }
      spanOf(e.path as string, e.externalId ?? null)?.addEvent(
        `billing.${what === 'retry' ? what : 'reauthorize'}`,
        facts,
        at,
      );
    } else if (name && e.attempts !== undefined) {
      // An end: of a consume or replay (by its number), else of the oldest fetch of its kind.
      const span = e.call === undefined ? fetches[kind]?.shift() : consume?.span;
      if (e.call !== undefined) consumes.delete(e.call);
      let { error } = e;
      let outcome = what === 'charged' ? (e.isCredit ? 'credits' : 'free_count') : OUTCOMES[what];
      if (e.reason) error = { code: e.reason };
      if (e.outcome?.ok) {
        const { isBlacklisted, isCredit } = e.outcome.result;
        outcome = isBlacklisted ? 'blacklisted' : isCredit ? 'credits' : 'free_count';
      } else if (e.outcome) error = e.outcome.error;
      if (error?.code === 'insufficient_credits') {
        outcome = 'insufficient';
        error = undefined;
      }
      end(span, at, { 'billing.attempts': e.attempts, ...ids(e.externalId) }, outcome, error);
    }
  };
  return { onEvent, spanOf };
}

// Ends a span at `at`: its outcome, or its error (ERROR for an error of billing, never for a cancel).
function end(span: Span | undefined, at: number, attributes: Attributes, outcome?: string, error?: Fields['error']) {
  if (!span) return;
  if (outcome) span.setAttributes({ 'billing.outcome': outcome, 'billing.is_credit': outcome === 'credits' });
  if (error) {
    const canceled = /^(aborted|disposed)$/.test(error.code);
    span.setAttribute(canceled ? 'billing.canceled' : 'error.type', error.code);
    if (error.status !== undefined) span.setAttribute('http.response.status_code', error.status);
    if (!canceled) span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
  }
  span.setAttributes(attributes);
  span.end(at);
}
