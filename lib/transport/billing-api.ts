import { BACKEND_CODES, PATHS, type Envelope } from '../wire';
import type { Call, CallContext, CallOptions, TransportConfig } from './config';
import { decodeBalance, decodeConsume, decodeFreeCount, type ConsumeData, type FreeCount } from './decode';
import type { HeaderRecord } from './headers';
import { request } from './request';
import { backendError } from './status-error';

export type { CallOptions } from './config';

/** The backend's answer to a consume, as the engine needs it. */
export type ConsumeAnswer =
  ({ readonly kind: 'charged' } & ConsumeData) | { readonly kind: 'insufficient' } | { readonly kind: 'blacklisted' };

/** The three backend calls of the spec, nothing else. Every rejection is a `BillingError`. */
export interface BillingApi {
  freeCount(options?: CallOptions): Promise<FreeCount>;
  balance(options?: CallOptions): Promise<number>;
  consume(externalId: string, options?: CallOptions): Promise<ConsumeAnswer>;
}

function callOf(config: TransportConfig, method: Call['method'], path: string, query = ''): Call {
  const url = `${config.baseUrl}${path}`;
  return { method, path, url: `${url}${query}`, where: `${method} ${url}` };
}

function succeeded<T>(call: Call, decode: (envelope: Envelope) => T) {
  return (envelope: Envelope, headers: HeaderRecord): T => {
    if (envelope.code !== BACKEND_CODES.ok) throw backendError(envelope, call.where, headers);
    return decode(envelope);
  };
}

function toConsumeAnswer(call: Call) {
  return (envelope: Envelope, headers: HeaderRecord): ConsumeAnswer => {
    switch (envelope.code) {
      case BACKEND_CODES.ok:
        return { kind: 'charged', ...decodeConsume(envelope) };
      case BACKEND_CODES.insufficient:
        return { kind: 'insufficient' };
      case BACKEND_CODES.blacklisted:
        return { kind: 'blacklisted' };
      default:
        throw backendError(envelope, call.where, headers);
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
 * Binds the three calls to a configuration and an application key. URLs and
 * readers are built here once, not per call or attempt; each request is
 * independent of the others (its own abort and timeout).
 */
export function createBillingApi(config: TransportConfig, appKey: string): BillingApi {
  const module = `generator_${appKey}`;
  const context: CallContext = { config, reauthorize: waves(config) };
  const freeCount = callOf(config, 'GET', PATHS.freeTrialCount, `?module=${encodeURIComponent(module)}`);
  const balance = callOf(config, 'GET', PATHS.balance);
  const consume = callOf(config, 'POST', PATHS.consume);
  const readFreeCount = succeeded(freeCount, decodeFreeCount);
  const readBalance = succeeded(balance, decodeBalance);
  const readConsume = toConsumeAnswer(consume);
  // The same text JSON.stringify gives for { module, external_id }, with the module encoded once.
  const bodyStart = `{"module":${JSON.stringify(module)},"external_id":`;
  return {
    freeCount: (options) => request(context, freeCount, readFreeCount, options),
    balance: (options) => request(context, balance, readBalance, options),
    consume: (externalId, options) =>
      request(context, consume, readConsume, options, `${bodyStart}${JSON.stringify(externalId)}}`),
  };
}
