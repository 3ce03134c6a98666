import type { Observable } from 'rxjs';
import { BillingError } from '../errors';
import { BACKEND_CODES, PATHS, type Envelope } from '../wire';
import { decodeBalance, decodeConsume, decodeFreeCount, type ConsumeData, type FreeCount } from './decode';
import type { HeaderRecord } from './headers';
import { call$, type Call, type CallContext, type TransportConfig } from './request';
import { signalPool } from './signals';
import { backendError } from './status-error';

/** The backend's answer to a consume, as the engine needs it. */
export type ConsumeAnswer =
  ({ readonly kind: 'charged' } & ConsumeData) | { readonly kind: 'insufficient' } | { readonly kind: 'blacklisted' };

/** What each call may take. */
export interface CallOptions {
  /** Aborting it aborts this request only; rejects with BillingError('aborted'). */
  readonly signal?: AbortSignal;
  /** Called as each attempt goes out (retries included), so the engine can number answers by send order. */
  readonly onSend?: () => void;
}

/** The three backend calls of the spec, nothing else; every rejection is a `BillingError`. */
export interface BillingApi {
  freeCount(options?: CallOptions): Promise<FreeCount>;
  balance(options?: CallOptions): Promise<number>;
  consume(externalId: string, options?: CallOptions): Promise<ConsumeAnswer>;
}

// One call as a promise: its own subscription, cut by its own signal only.
function promised<T>(call$: Observable<T>, signal: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new BillingError('aborted', 'The call was aborted'));
    const abort = () => {
      subscription.unsubscribe();
      reject(new BillingError('aborted', 'The call was aborted'));
    };
    const done = () => signal?.removeEventListener('abort', abort);
    const subscription = call$.subscribe({
      next: (value) => (done(), resolve(value)),
      error: (error: unknown) => (done(), reject(error)),
    });
    if (!subscription.closed) signal?.addEventListener('abort', abort);
  });
}

function callOf(config: TransportConfig, method: Call['method'], path: string, query = ''): Call {
  return { method, path, url: `${config.baseUrl}${path}${query}`, where: `${method} ${path}` };
}

function succeeded<T>(where: string, decode: (envelope: Envelope) => T) {
  return (envelope: Envelope, headers: HeaderRecord): T => {
    if (envelope.code !== BACKEND_CODES.ok) throw backendError(envelope, where, headers);
    return decode(envelope);
  };
}

function toConsumeAnswer(where: string) {
  return (envelope: Envelope, headers: HeaderRecord): ConsumeAnswer => {
    switch (envelope.code) {
      case BACKEND_CODES.ok:
        return { kind: 'charged', ...decodeConsume(envelope) };
      case BACKEND_CODES.insufficient:
        return { kind: 'insufficient' };
      case BACKEND_CODES.blacklisted:
        return { kind: 'blacklisted' };
      default:
        throw backendError(envelope, where, headers);
    }
  };
}

// Concurrent 401s share one onUnauthorized: a 401 that arrives while it is pending joins it.
function waves(config: TransportConfig): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => {
    pending ??= new Promise<void>((resolve) => resolve(config.onUnauthorized?.())).then(
      () => {
        pending = undefined;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
}

/**
 * Binds the three calls to a configuration and an application key. URLs,
 * labels and readers are built here once, not per call or attempt.
 *
 * @example
 * ```ts
 * const api = createBillingApi({ baseUrl, headers, fetch, scheduler, timeoutMs: 10_000, policy }, 'poster');
 * console.log(await api.balance());
 * ```
 */
export function createBillingApi(config: TransportConfig, appKey: string): BillingApi {
  const module = `generator_${appKey}`;
  const context: CallContext = { config, reauthorize: waves(config), signals: signalPool() };
  const freeCount = callOf(config, 'GET', PATHS.freeTrialCount, `?module=${encodeURIComponent(module)}`);
  const balance = callOf(config, 'GET', PATHS.balance);
  const consume = callOf(config, 'POST', PATHS.consume);
  const readFreeCount = succeeded(freeCount.where, decodeFreeCount);
  const readBalance = succeeded(balance.where, decodeBalance);
  const readConsume = toConsumeAnswer(consume.where);
  // The same text JSON.stringify gives for { module, external_id }, with the module encoded once.
  const bodyStart = `{"module":${JSON.stringify(module)},"external_id":`;
  return {
    freeCount: (options) => promised(call$(context, freeCount, readFreeCount, options?.onSend), options?.signal),
    balance: (options) => promised(call$(context, balance, readBalance, options?.onSend), options?.signal),
    consume: (externalId, options) =>
      promised(
        call$(
          context,
          { ...consume, body: `${bodyStart}${JSON.stringify(externalId)}}` },
          readConsume,
          options?.onSend,
        ),
        options?.signal,
      ),
  };
}
