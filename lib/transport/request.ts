import { defer, from, map, mergeMap, of, retry, type Observable, type SchedulerLike } from 'rxjs';
import { BillingError } from '../errors';
import type { FetchLike, HeadersOption } from '../types';
import { decodeEnvelope, type Envelope } from './decode';
import { send$, type HttpResponse } from './http';
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

type Headers = Readonly<Record<string, string>>;

async function resolveHeaders(option: HeadersOption | undefined): Promise<Headers> {
  let headers: unknown;
  try {
    headers = typeof option === 'function' ? await option() : (option ?? {});
  } catch {
    // The thrown value may quote a credential, so it is not passed on.
    throw new BillingError('invalid_argument', 'The headers option function threw or rejected');
  }
  const valid =
    typeof headers === 'object' &&
    headers !== null &&
    Object.values(headers as Record<string, unknown>).every((value) => typeof value === 'string');
  if (!valid) throw new BillingError('invalid_argument', 'The headers option must give a record of strings');
  return headers as Headers;
}

/** Replaces any header value quoted by a server, so errors never carry credentials. */
export function redact(text: string, headers: Headers): string {
  let out = text;
  for (const value of Object.values(headers)) {
    if (value.length >= 4) out = out.split(value).join('[redacted]');
  }
  return out;
}

function toUrl(baseUrl: string, call: Call): string {
  const query = Object.entries(call.query ?? {})
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return `${baseUrl}${call.path}${query === '' ? '' : `?${query}`}`;
}

function interpret(response: HttpResponse, where: string, headers: Headers, policy: RetryPolicy): Envelope {
  if (response.status < 200 || response.status > 299) {
    const retryAfterMs = parseRetryAfter(response.retryAfter, response.date, policy.maxRetryAfterMs);
    throw new BillingError('http', `HTTP ${response.status} on ${where}`, { status: response.status, retryAfterMs });
  }
  const envelope = decodeEnvelope(response.text);
  return { ...envelope, message: redact(envelope.message, headers).slice(0, 500) };
}

/** Sends a call with headers, timeout and retries; emits the decoded envelope once. */
export function call$(config: TransportConfig, call: Call): Observable<Envelope> {
  const url = toUrl(config.baseUrl, call);
  const where = `${call.method} ${call.path}`;
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  // A record was checked by createClient and needs no promise; a function is called (and checked) per attempt.
  const option = config.headers;
  const headers$ = typeof option === 'function' ? defer(() => from(resolveHeaders(option))) : of(option ?? {});
  const attempt$ = headers$.pipe(
    mergeMap((headers) => {
      const all: Record<string, string> = { accept: 'application/json', ...headers };
      if (body !== undefined) all['content-type'] = 'application/json';
      const request =
        body === undefined
          ? { method: call.method, url, headers: all }
          : { method: call.method, url, headers: all, body };
      return send$(config.fetch, request, config.timeoutMs, config.scheduler).pipe(
        map((response) => interpret(response, where, headers, config.policy)),
      );
    }),
  );
  return attempt$.pipe(retry({ count: config.policy.retries, delay: retryNotifier(config.policy, config.scheduler) }));
}
