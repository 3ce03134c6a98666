/**
 * The wire format of the three backend calls (contract sections 2 and 3): the
 * one place both the client's transport and the reference backend read
 * paths, codes, limits and the envelope from.
 */

/**
 * The paths of the three backend calls.
 */
export const PATHS = {
  freeTrialCount: '/ai/v5/service/free_trial/count',
  balance: '/ai/v1/credit/getBalance',
  consume: '/ai/v5/service/free_trial',
} as const;

/**
 * Backend codes of the envelope (contract section 2).
 *
 * @example
 * ```ts
 * if (envelope.code === BACKEND_CODES.insufficient) showTopUp();
 * ```
 */
export const BACKEND_CODES = {
  ok: 0,
  insufficient: 20101,
  blacklisted: 20102,
} as const;

/**
 * Largest request body the backend reads; a larger one gets HTTP 413.
 *
 * @example
 * ```ts
 * const oversize = 'x'.repeat(MAX_BODY_BYTES + 1);
 * ```
 */
export const MAX_BODY_BYTES = 16_384;

/**
 * Longest `external_id` (characters); the shortest is 1. A longer one gets HTTP 400.
 *
 * @example
 * ```ts
 * const fits = id.length >= 1 && id.length <= MAX_EXTERNAL_ID_LENGTH;
 * ```
 */
export const MAX_EXTERNAL_ID_LENGTH = 255;

/** Whether `value` is an `external_id` the backend takes: a string of 1 to `MAX_EXTERNAL_ID_LENGTH` characters. */
export const isExternalId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_EXTERNAL_ID_LENGTH;

/**
 * Every body the backend answers (faults aside): `code` 0 with `data`, or a
 * non-zero code whose `data` is usually `null`.
 *
 * @example
 * ```ts
 * const answer: Envelope = { code: 0, message: 'ok', data: { balance: 12 } };
 * ```
 */
export interface Envelope {
  readonly code: number;
  readonly message: string;
  readonly data: Readonly<Record<string, unknown>> | null;
}
