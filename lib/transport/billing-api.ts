import { map, type Observable } from 'rxjs';
import { BillingError } from '../errors';
import {
  decodeBalance,
  decodeConsume,
  decodeFreeCount,
  type ConsumeData,
  type Envelope,
  type FreeCount,
} from './decode';
import { call$, type TransportConfig } from './request';

/** The backend's answer to a consume, as the engine needs it. */
export type ConsumeAnswer =
  ({ readonly kind: 'charged' } & ConsumeData) | { readonly kind: 'insufficient' } | { readonly kind: 'blacklisted' };

/** The three backend calls of the spec, nothing else. */
export interface BillingApi {
  freeCount$(onSend?: () => void): Observable<FreeCount>;
  balance$(onSend?: () => void): Observable<number>;
  consume$(externalId: string, onSend?: () => void): Observable<ConsumeAnswer>;
}

export const PATHS = {
  freeCount: '/ai/v5/service/free_trial/count',
  balance: '/ai/v1/credit/getBalance',
  consume: '/ai/v5/service/free_trial',
} as const;

export const CODE_INSUFFICIENT = 20101;
export const CODE_BLACKLISTED = 20102;

function backendError(envelope: Envelope, where: string): BillingError {
  return new BillingError('backend', `Backend answered code ${envelope.code} on ${where}: ${envelope.message}`, {
    backendCode: envelope.code,
  });
}

function succeeded<T>(where: string, decode: (envelope: Envelope) => T) {
  return map((envelope: Envelope): T => {
    if (envelope.code !== 0) throw backendError(envelope, where);
    return decode(envelope);
  });
}

function toConsumeAnswer(envelope: Envelope): ConsumeAnswer {
  switch (envelope.code) {
    case 0:
      return { kind: 'charged', ...decodeConsume(envelope) };
    case CODE_INSUFFICIENT:
      return { kind: 'insufficient' };
    case CODE_BLACKLISTED:
      return { kind: 'blacklisted' };
    default:
      throw backendError(envelope, `POST ${PATHS.consume}`);
  }
}

/** Binds the three calls to a configuration and an application key. */
export function createBillingApi(config: TransportConfig, appKey: string): BillingApi {
  const module = `generator_${appKey}`;
  return {
    freeCount$: (onSend) =>
      call$(config, { method: 'GET', path: PATHS.freeCount, query: { module } }, onSend).pipe(
        succeeded(`GET ${PATHS.freeCount}`, decodeFreeCount),
      ),
    balance$: (onSend) =>
      call$(config, { method: 'GET', path: PATHS.balance }, onSend).pipe(
        succeeded(`GET ${PATHS.balance}`, decodeBalance),
      ),
    consume$: (externalId, onSend) =>
      call$(config, { method: 'POST', path: PATHS.consume, body: { module, external_id: externalId } }, onSend).pipe(
        map(toConsumeAnswer),
      ),
  };
}
