import crossFetch from 'cross-fetch';
import { Observable, type SchedulerLike } from 'rxjs';
import { BillingError } from '../errors';
import type { FetchLike } from '../types';
import { networkError } from './network-error';

/** One HTTP exchange as the transport sees it. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The caller's own headers among `headers`: what an error must never quote. */
  readonly secrets?: Readonly<Record<string, string>>;
}

/** The parts of a response the client reads; the body is read whole. */
export interface HttpResponse {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly date: string | null;
  readonly text: string;
}

/** `cross-fetch` unless the caller injected a fetch. */
export const defaultFetch: FetchLike = crossFetch as FetchLike;

/**
 * The only place that calls `fetch`. One attempt: the timeout covers the
 * whole response, body included, and runs on the injected scheduler;
 * unsubscribing aborts the request.
 */
export function send$(
  fetchFn: FetchLike,
  request: HttpRequest,
  timeoutMs: number,
  scheduler: SchedulerLike,
): Observable<HttpResponse> {
  return new Observable<HttpResponse>((subscriber) => {
    const controller = new AbortController();
    // Built only for an error message: URL parsing is not free on the hot path.
    const where = () => `${request.method} ${new URL(request.url).pathname}`;
    let inFlight = true;
    const timer = scheduler.schedule(() => {
      subscriber.error(new BillingError('timeout', `${where()} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const init: RequestInit = { method: request.method, headers: { ...request.headers }, signal: controller.signal };
    if (request.body !== undefined) init.body = request.body;
    let pending: Promise<HttpResponse>;
    try {
      pending = fetchFn(request.url, init).then(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        date: response.headers.get('date'),
        text: await response.text(),
      }));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (response) => {
        inFlight = false;
        subscriber.next(response);
        subscriber.complete();
      },
      (error: unknown) => {
        inFlight = false;
        // Our own abort after unsubscribing: nobody listens, so no error is built.
        if (subscriber.closed) return;
        // A fetch error may quote the request, which carries the caller's headers: redacted.
        subscriber.error(networkError(where(), error, request.secrets ?? request.headers));
      },
    );
    return () => {
      timer.unsubscribe();
      // Aborting builds a DOMException with a stack: a quarter of a consume's
      // CPU when done after every completed request, so only a live one is aborted.
      if (inFlight) controller.abort();
    };
  });
}
