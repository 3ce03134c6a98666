import { BACKEND_CODES, PATHS, type Envelope } from '../shared/wire';
import type { Call, CallOptions, TransportConfig } from './config';
import { decodeBalance, decodeConsume, decodeFreeCount, type ConsumeData } from './decode';
import { request } from './request';

/** The backend's answer to a consume, as the engine needs it. */
export type ConsumeAnswer =
  ({ readonly kind: 'charged' } & ConsumeData) | { readonly kind: 'insufficient' } | { readonly kind: 'blacklisted' };

/** The three backend calls of the spec, nothing else. Every rejection is a `BillingError`. */
export type BillingApi = ReturnType<typeof createBillingApi>;

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
export function createBillingApi(config: TransportConfig, appKey: string) {
  const module = `generator_${appKey}`;
  // A consume's body up to its id, written once: a JSON.stringify of a new object per consume costs more.
  const consumeBodyStart = `{"module":${JSON.stringify(module)},"external_id":`;
  // Concurrent 401s share one onUnauthorized: a 401 that arrives while it is pending joins it.
  let reauthorizing: Promise<void> | undefined;
  const reauthorize = () =>
    (reauthorizing ??= new Promise<void>((resolve) => resolve(config.onUnauthorized?.())).finally(() => {
      reauthorizing = undefined;
    }));
  // One call, built once, sent by the function returned: its request as errors name it, and the reader of
  // its envelope: code 0 has its data decoded, a code in `refusals` is that answer, any other is none (a
  // `backend` error).
  const defineCall = <T>(
    method: Call<T>['method'],
    path: string,
    decode: (data: Envelope['data']) => T,
    query = '',
    refusals: Readonly<Record<number, T>> = {},
  ) => {
    const call: Call<T> = {
      method,
      path,
      url: config.baseUrl + path + query,
      where: `${method} ${config.baseUrl}${path}`,
      read: (envelope) => (envelope.code === BACKEND_CODES.ok ? decode(envelope.data) : refusals[envelope.code]),
    };
    return (options?: CallOptions, body?: string) => request(config, reauthorize, call, options, body);
  };
  const consume = defineCall<ConsumeAnswer>(
    'POST',
    PATHS.consume,
    (data) => ({ kind: 'charged', ...decodeConsume(data) }),
    '',
    REFUSALS,
  );
  return {
    freeCount: defineCall('GET', PATHS.freeTrialCount, decodeFreeCount, `?module=${encodeURIComponent(module)}`),
    balance: defineCall('GET', PATHS.balance, (data) => decodeBalance(data).balance),
    consume: (externalId: string, options?: CallOptions) =>
      consume(options, `${consumeBodyStart}${JSON.stringify(externalId)}}`),
  };
}
