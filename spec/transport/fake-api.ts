import { Observable } from 'rxjs';
import {
  createBillingApi,
  type BillingApi,
  type CallOptions,
  type ConsumeAnswer,
} from '../../lib/transport/billing-api';
import type { FreeCount } from '../../lib/transport/decode';
import type { TransportConfig } from '../../lib/transport/request';
import { defaultRetryPolicy } from '../../lib/transport/retry-policy';
import type { FetchLike } from '../../lib/types';
import { PATHS } from '../../lib/wire';
import { VirtualClock } from '../helpers/virtual-clock';

/** One request as the fake fetch saw it. */
export interface Sent {
  readonly path: string;
  readonly authorization: string | null;
  readonly body: unknown;
}

/** What the fake backend answers: a status, a JSON body and headers. */
export interface Answer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

const DATA: Readonly<Record<string, unknown>> = {
  [PATHS.freeTrialCount]: { is_enabled: true, free_remaining: 2, free_total: 5, credits_per_use: 3 },
  [PATHS.balance]: { balance: 9 },
  [PATHS.consume]: { free_remaining: 1, is_credit: false },
};

/** The code-0 answer of a path. */
export function okFor(path: string): Answer {
  return { status: 200, body: { code: 0, message: 'ok', data: DATA[path] } };
}

/**
 * A fetch that logs each request and answers what `answer` decides; every
 * answer is a promise that settles at once, so virtual time alone decides
 * timeouts and retries.
 */
export function fakeFetch(answer: (sent: Sent, index: number) => Answer): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchLike = (input, init) => {
    const headers = new Headers(init?.headers);
    const request: Sent = {
      path: new URL(input).pathname,
      authorization: headers.get('authorization'),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    const { status, body, headers: extra } = answer(request, sent.length - 1);
    return Promise.resolve(
      new Response(JSON.stringify(body ?? { code: status, message: 'no', data: null }), { status, headers: extra }),
    );
  };
  return { fetch, sent };
}

/** The api as these specs drive it: each call an Observable, unsubscribing aborts that call alone. */
export interface ObservedApi {
  freeCount$(onSend?: () => void): Observable<FreeCount>;
  balance$(onSend?: () => void): Observable<number>;
  consume$(externalId: string, onSend?: () => void): Observable<ConsumeAnswer>;
}

function observed<T>(call: (options: CallOptions) => Promise<T>, onSend?: () => void): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    call({ signal: controller.signal, onSend }).then(
      (value) => {
        subscriber.next(value);
        subscriber.complete();
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => controller.abort();
  });
}

/** The promise api (seam S1) seen as Observables. */
export function observedApi(api: BillingApi): ObservedApi {
  return {
    freeCount$: (onSend) => observed((options) => api.freeCount(options), onSend),
    balance$: (onSend) => observed((options) => api.balance(options), onSend),
    consume$: (externalId, onSend) => observed((options) => api.consume(externalId, options), onSend),
  };
}

/** An api on a virtual clock with a pinned jitter (half the ceiling) and two retries. */
export function fakeApi(
  fetch: FetchLike,
  config: Partial<TransportConfig> = {},
): { api: ObservedApi; clock: VirtualClock } {
  const clock = new VirtualClock();
  const api = createBillingApi(
    {
      baseUrl: 'http://billing.test',
      headers: { Authorization: 'Bearer old' },
      fetch,
      scheduler: clock,
      timeoutMs: 10_000,
      policy: { ...defaultRetryPolicy, retries: 2, random: () => 0.5 },
      ...config,
    },
    'poster',
  );
  return { api: observedApi(api), clock };
}

/** The first value or the error of an Observable, as a settled record (never a rejected promise). */
export function outcome<T>(source: { subscribe: (observer: object) => unknown }): {
  readonly value?: T;
  readonly error?: unknown;
  readonly done: boolean;
} {
  const state: { value?: T; error?: unknown; done: boolean } = { done: false };
  source.subscribe({
    next: (value: T) => {
      state.value = value;
    },
    error: (error: unknown) => {
      state.error = error;
      state.done = true;
    },
    complete: () => {
      state.done = true;
    },
  });
  return state;
}
