import { BACKEND_CODES, PATHS, type Envelope } from '../shared/wire';
import type { Call, CallContext, CallOptions, TransportConfig } from './config';
import { decodeBalance, decodeConsume, decodeFreeCount, type ConsumeData, type FreeCount } from './decode';
import { backendError } from './failure';
import { request } from './request';

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

// The consume codes that are answers, not errors.
const REFUSALS: Readonly<Record<number, ConsumeAnswer>> = {
  [BACKEND_CODES.insufficient]: { kind: 'insufficient' },
  [BACKEND_CODES.blacklisted]: { kind: 'blacklisted' },
};

/**
 * Binds the three calls to a configuration and an application key. URLs and
 * readers are built here once, not per call or attempt; each request is
 * independent of the others (its own abort and timeout).
 */
export function createBillingApi(config: TransportConfig, appKey: string): BillingApi {
  const module = `generator_${appKey}`;
  // Concurrent 401s share one onUnauthorized: a 401 that arrives while it is pending joins it.
  let reauthorizing: Promise<void> | undefined;
  const context: CallContext = {
    config,
    reauthorize: () =>
      (reauthorizing ??= new Promise<void>((resolve) => resolve(config.onUnauthorized?.())).finally(() => {
        reauthorizing = undefined;
      })),
  };
  // One call: its request as errors name it, and the reader of its envelope.
  const defineCall = <T>(
    method: Call<T>['method'],
    path: string,
    decode: (envelope: Envelope) => T,
    refusals: Readonly<Record<number, T>> = {},
    query = '',
  ): Call<T> => {
    const where = `${method} ${config.baseUrl}${path}`;
    return {
      method,
      path,
      url: config.baseUrl + path + query,
      where,
      read: (envelope, headers) => {
        if (envelope.code === BACKEND_CODES.ok) return decode(envelope);
        const refusal = refusals[envelope.code];
        if (refusal === undefined) throw backendError(envelope, where, headers);
        return refusal;
      },
    };
  };
  const freeCount = defineCall(
    'GET',
    PATHS.freeTrialCount,
    decodeFreeCount,
    {},
    `?module=${encodeURIComponent(module)}`,
  );
  const balance = defineCall('GET', PATHS.balance, decodeBalance);
  const consume = defineCall<ConsumeAnswer>(
    'POST',
    PATHS.consume,
    (envelope) => ({ kind: 'charged', ...decodeConsume(envelope) }),
    REFUSALS,
  );
  // The same text JSON.stringify gives for { module, external_id }, with the module encoded once.
  const bodyStart = `{"module":${JSON.stringify(module)},"external_id":`;
  return {
    freeCount: (options) => request(context, freeCount, options),
    balance: (options) => request(context, balance, options),
    consume: (externalId, options) =>
      request(context, consume, { ...options, body: `${bodyStart}${JSON.stringify(externalId)}}` }),
  };
}
