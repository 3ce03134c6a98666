import type { SchedulerLike } from 'rxjs';
import type { BillingError } from '../shared/errors';
import type { FetchLike, HeadersOption } from '../shared/types';
import type { Envelope } from '../shared/wire';
import type { RetryPolicy } from './retry-policy';

/**
 * Another attempt the transport has just decided on (feeds the `request:retry` and
 * `request:unauthorized` events): after `delayMs`, or, with `delayMs` `null`,
 * once `onUnauthorized` settled.
 */
export interface RetryNotice {
  /** The number of the attempt about to be made: 2 for the first retry. */
  readonly attempt: number;
  readonly delayMs: number | null;
  /** The call's path, e.g. `/ai/v5/service/free_trial`; never a query or a header. */
  readonly path: string;
  /** Why: the failed attempt's error. */
  readonly error: BillingError;
}

/** What every call needs: where, how, and with which credentials. */
export interface TransportConfig {
  readonly baseUrl: string;
  readonly headers: HeadersOption | undefined;
  readonly fetch: FetchLike;
  readonly scheduler: SchedulerLike;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  /** Called as another attempt is decided on; it must not throw (the events feature's never does). */
  readonly onRetry?: (retry: RetryNotice) => void;
  /** Awaited once for 401s that arrive while it is pending, then each of those requests is sent once more with fresh headers. */
  readonly onUnauthorized?: () => void | Promise<void>;
}

/** What the caller of one request may give; a POST's body is made by its call and passed to request() beside it. */
export interface CallOptions {
  /** Aborting it aborts this request only; rejects with BillingError('aborted'). */
  readonly signal?: AbortSignal;
  /** Called as each attempt goes out (retries included), so the engine can number answers by send order. */
  readonly onSend?: () => void;
}

/** One kind of backend call, built once: retried attempts send exactly the same request. */
export interface Call<T> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly url: string;
  /**
   * The request as errors name it: method and URL without the query, e.g.
   * `GET https://api.example.com/prefix/ai/v1/credit/getBalance` (the options
   * refuse a baseUrl with credentials, a query or a fragment).
   */
  readonly where: string;
  /**
   * Reads a 2xx envelope: its answer, undefined for a code the call does not
   * expect (a `backend` error), or throws a `decode` error (never retried).
   */
  readonly read: (envelope: Envelope) => T | undefined;
}
