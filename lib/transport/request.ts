import { defer, map, mergeMap, retry, type Observable, type SchedulerLike } from 'rxjs';
import { BillingError } from '../errors';
import type { FetchLike, HeadersOption } from '../types';
import { decodeEnvelope, type Envelope } from './decode';
import { awaitHeaders$, checkedHeaders, type HeaderRecord } from './headers';
import { send$, type HttpResponse } from './http';
import { quotable, redact } from './redact';
import { parseRetryAfter, retryNotifier, type RetryPolicy } from './retry-policy';

/** What every call needs: where, how, and with which credentials. */
export interface TransportConfig {
  readonly baseUrl: string;
  readonly headers: HeadersOption | undefined;
  readonly fetch: FetchLike;
  readonly scheduler: SchedulerLike;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
}

/** One logical backend call; retried attempts send exactly the same request. */
export interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

const NO_HEADERS: HeaderRecord = {};

function toUrl(baseUrl: string, call: Call): string {
  const query = Object.entries(call.query ?? {})
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return `${baseUrl}${call.path}${query === '' ? '' : `?${query}`}`;
}

// The backend's own words on a failed status, if its body has any.
function statusMessage(text: string, headers: HeaderRecord): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return '';
  }
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? quotable(message, headers, 200) : '';
}

function statusError(response: HttpResponse, where: string, headers: HeaderRecord, policy: RetryPolicy): BillingError {
  const { status } = response;
  const retryAfterMs = parseRetryAfter(response.retryAfter, response.date, policy.maxRetryAfterMs);
  const said = statusMessage(response.text, headers);
  const hint =
    status === 401 || status === 403
      ? '; check the headers option (credentials missing, expired or not allowed for this module)'
      : '';
  const message = `HTTP ${status} on ${where}${said === '' ? '' : `: ${said}`}${hint}`;
  return new BillingError('http', message, { status, retryAfterMs });
}

function interpret(response: HttpResponse, where: string, headers: HeaderRecord, policy: RetryPolicy): Envelope {
  if (response.status < 200 || response.status > 299) throw statusError(response, where, headers, policy);
  const envelope = decodeEnvelope(response.text);
  return { ...envelope, message: redact(envelope.message, headers).slice(0, 500) };
}

/** Sends a call with headers, timeout and retries; emits the decoded envelope once. */
export function call$(config: TransportConfig, call: Call): Observable<Envelope> {
  const { scheduler, timeoutMs } = config;
  const url = toUrl(config.baseUrl, call);
  const where = `${call.method} ${call.path}`;
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const send = (headers: HeaderRecord, budgetMs: number) => {
    const all: Record<string, string> = { accept: 'application/json', ...headers };
    if (body !== undefined) all['content-type'] = 'application/json';
    const request = { method: call.method, url, headers: all, secrets: headers };
    return send$(config.fetch, body === undefined ? request : { ...request, body }, budgetMs, scheduler).pipe(
      map((response) => interpret(response, where, headers, config.policy)),
    );
  };
  const option = config.headers;
  // Static headers need no promise; they are checked per attempt, since a record or Headers may change.
  const attempt$ =
    typeof option === 'function'
      ? defer(() => {
          // One budget per attempt covers waiting for the headers and the whole exchange.
          const start = scheduler.now();
          return awaitHeaders$(option, timeoutMs, scheduler, where).pipe(
            mergeMap((headers) => send(headers, Math.max(1, timeoutMs - (scheduler.now() - start)))),
          );
        })
      : defer(() => send(option === undefined ? NO_HEADERS : checkedHeaders(option), timeoutMs));
  return attempt$.pipe(retry({ count: config.policy.retries, delay: retryNotifier(config.policy, scheduler) }));
}
