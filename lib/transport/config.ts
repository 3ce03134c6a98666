import type { SchedulerLike } from 'rxjs';
import type { FetchLike, HeadersOption } from '../types';
import type { Envelope } from './decode';
import type { HeaderRecord } from './headers';
import type { RetryPolicy } from './retry-policy';
import type { signalPool } from './signals';

/** A retry the transport has just scheduled (feeds the `request:retry` event). */
export interface RetryNotice {
  /** The number of the attempt about to be made: 2 for the first retry. */
  readonly attempt: number;
  readonly delayMs: number;
  /** The call's path, e.g. `/ai/v5/service/free_trial`; never a query or a header. */
  readonly path: string;
}

/** What every call needs: where, how, and with which credentials. */
export interface TransportConfig {
  readonly baseUrl: string;
  readonly headers: HeadersOption | undefined;
  readonly fetch: FetchLike;
  readonly scheduler: SchedulerLike;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  /** Called as a retry is scheduled; a throw is ignored. */
  readonly onRetry?: (retry: RetryNotice) => void;
  /** Awaited once per wave of 401s, then each request of the wave is sent once more with fresh headers. */
  readonly onUnauthorized?: () => void | Promise<void>;
}

/** One kind of backend call, built once: retried attempts send exactly the same request. */
export interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly url: string;
  /** `METHOD /path`, the label of status and headers errors. */
  readonly where: string;
  /** JSON, for a POST. */
  readonly body?: string;
}

/** What a call shares with the other calls of its api. */
export interface CallContext {
  readonly config: TransportConfig;
  /** The pending `onUnauthorized` of the current 401 wave, or a new one. */
  readonly reauthorize: () => Promise<void>;
  /** The abort signals the api's requests share. */
  readonly signals: ReturnType<typeof signalPool>;
}

/** Reads a 2xx envelope; throws the call's error otherwise (never retried). */
export type ReadEnvelope<T> = (envelope: Envelope, headers: HeaderRecord) => T;
