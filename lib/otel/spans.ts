import { SpanStatusCode, context, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { BillingEvent, BillingEventOf } from '../shared/billing-event';

// A consume's span, with the id it is known by once it has one.
interface ConsumeSpan {
  readonly span: Span;
  externalId: string | null;
  readonly replayed: boolean;
}

// The events that end a consume or a replay.
type ConsumeEnd = BillingEventOf<
  | 'consume:charged'
  | 'consume:free'
  | 'consume:denied'
  | 'consume:blacklisted'
  | 'consume:failed'
  | 'consume:canceled'
  | 'replay:settled'
>;

// How a span ended: `billing.outcome` for an answer (a refusal is one), else the error (an abort's too).
interface Ending {
  readonly outcome?: string;
  readonly error?: { readonly code: string; readonly status?: number | undefined };
}

function endingOf(event: ConsumeEnd): Ending {
  switch (event.type) {
    case 'consume:charged':
      return { outcome: event.isCredit ? 'credits' : 'free_count' };
    case 'consume:free':
      return { outcome: 'free_period' };
    case 'consume:denied':
      return { outcome: 'insufficient' };
    case 'consume:blacklisted':
      return { outcome: 'blacklisted' };
    case 'consume:failed':
      return { error: event.error };
    case 'consume:canceled':
      return { error: { code: event.reason } };
  }
  const { outcome } = event;
  if (outcome.ok) {
    const { isBlacklisted, isCredit } = outcome.result;
    return { outcome: isBlacklisted ? 'blacklisted' : isCredit ? 'credits' : 'free_count' };
  }
  return outcome.error.code === 'insufficient_credits' ? { outcome: 'insufficient' } : { error: outcome.error };
}

const last = <T>(list: readonly T[]): T | undefined => list[list.length - 1];

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
  const fetches: Record<'usage' | 'refresh', Span[]> = { usage: [], refresh: [] };
  const ids = (externalId: string | null): Attributes =>
    recordIds && externalId !== null ? { 'billing.external_id': externalId } : {};
  // A POST's consume: by its id, else the oldest of the app's without an id yet (the one whose turn it is).
  const consumeOf = (externalId: string) => {
    const spans = [...consumes.values()];
    const found =
      spans.find((consume) => consume.externalId === externalId) ??
      spans.find((consume) => consume.externalId === null && !consume.replayed);
    if (found) found.externalId = externalId;
    return found;
  };
  const spanOf = (path: string, externalId: string | null) =>
    externalId !== null
      ? consumeOf(externalId)?.span
      : (/getBalance$/.test(path) && last(fetches.refresh)) || last(fetches.usage);

  // Ends a span at `at`: its attributes, and an error's (ERROR for an error of billing, never for a cancel).
  const end = (span: Span | undefined, at: number, attributes: Attributes, { outcome, error }: Ending) => {
    if (!span) return;
    if (outcome !== undefined)
      span.setAttributes({ 'billing.outcome': outcome, 'billing.is_credit': outcome === 'credits' });
    if (error !== undefined) {
      const canceled = /^(aborted|disposed)$/.test(error.code);
      span.setAttribute(canceled ? 'billing.canceled' : 'error.type', error.code);
      if (error.status !== undefined) span.setAttribute('http.response.status_code', error.status);
      if (!canceled) span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
    }
    span.setAttributes(attributes);
    span.end(at);
  };

  const onEvent = (event: BillingEvent): void => {
    const at = event.wallTime;
    switch (event.type) {
      case 'consume:started':
      case 'replay:started': {
        const replayed = event.type === 'replay:started';
        // A tab's replay runs under the lock the app's oldest consume holds: an event and a child of its span.
        const holder =
          replayed && event.origin === 'tab' ? [...consumes.values()].find((consume) => !consume.replayed) : undefined;
        holder?.span.addEvent('billing.replay', { 'billing.origin': 'tab', ...ids(event.externalId) }, at);
        const attributes: Attributes = { 'billing.replayed': replayed, ...ids(event.externalId) };
        if (replayed) attributes['billing.origin'] = event.origin;
        const parent = holder ? trace.setSpan(context.active(), holder.span) : context.active();
        const span = tracer.startSpan('consume credits', { startTime: at, attributes }, parent);
        consumes.set(event.call, { span, externalId: event.externalId, replayed });
        return;
      }
      case 'lock:acquired':
        return void consumes.get(event.call)?.span.addEvent('billing.lock_acquired', {}, at);
      case 'request:retry':
      case 'request:unauthorized': {
        const facts: Attributes = { 'url.path': event.path, 'http.response.status_code': 401 };
        if (event.type === 'request:retry') {
          Object.assign(facts, {
            'billing.retry': event.attempt,
            'billing.delay_ms': event.delayMs,
            'error.type': event.code,
          });
          if (event.status === null) delete facts['http.response.status_code'];
          else facts['http.response.status_code'] = event.status;
        }
        const name = event.type === 'request:retry' ? 'billing.retry' : 'billing.reauthorize';
        return void spanOf(event.path, event.externalId)?.addEvent(name, facts, at);
      }
      case 'usage:started':
      case 'refresh:started': {
        const kind = event.type === 'usage:started' ? 'usage' : 'refresh';
        const name = kind === 'usage' ? 'get usage' : 'refresh credits';
        fetches[kind].push(tracer.startSpan(name, { startTime: at }, context.active()));
        return;
      }
      case 'usage:loaded':
      case 'usage:failed':
      case 'usage:canceled':
      case 'refresh:loaded':
      case 'refresh:failed':
      case 'refresh:canceled': {
        const span = fetches[event.type.startsWith('usage') ? 'usage' : 'refresh'].shift();
        const error = 'error' in event ? event.error : 'reason' in event ? { code: event.reason } : undefined;
        return end(span, at, { 'billing.attempts': event.attempts }, { error });
      }
      case 'consume:recovered':
      case 'freePeriod:started':
      case 'freePeriod:ended':
        return;
      default: {
        const consume = consumes.get(event.call);
        consumes.delete(event.call);
        const attributes = { 'billing.attempts': event.attempts, ...ids(event.externalId) };
        return end(consume?.span, at, attributes, endingOf(event));
      }
    }
  };
  return { onEvent, spanOf };
}
