import type { Observable } from 'rxjs';
import { BACKEND_CODES, PATHS, type Envelope } from '../wire';
import { decodeBalance, decodeConsume, decodeFreeCount, type ConsumeData, type FreeCount } from './decode';
import type { HeaderRecord } from './headers';
import { call$, type Call, type CallContext, type TransportConfig } from './request';
import { signalPool } from './signals';
import { backendError } from './status-error';

/** The backend's answer to a consume, as the engine needs it. */
export type ConsumeAnswer =
  ({ readonly kind: 'charged' } & ConsumeData) | { readonly kind: 'insufficient' } | { readonly kind: 'blacklisted' };

/** The three backend calls of the spec, nothing else. */
export interface BillingApi {
  freeCount$(onSend?: () => void): Observable<FreeCount>;
  balance$(onSend?: () => void): Observable<number>;
  consume$(externalId: string, onSend?: () => void): Observable<ConsumeAnswer>;
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
 * api.balance$().subscribe((balance) => console.log(balance));
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
    freeCount$: (onSend) => call$(context, freeCount, readFreeCount, onSend),
    balance$: (onSend) => call$(context, balance, readBalance, onSend),
    consume$: (externalId, onSend) =>
      call$(context, { ...consume, body: `${bodyStart}${JSON.stringify(externalId)}}` }, readConsume, onSend),
  };
}
