/**
 * The paths of the three backend calls, e.g. for `failNext`.
 *
 * @example
 * ```ts
 * backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'drop' });
 * ```
 */
export const REFERENCE_PATHS = {
  freeTrialCount: '/ai/v5/service/free_trial/count',
  balance: '/ai/v1/credit/getBalance',
  consume: '/ai/v5/service/free_trial',
} as const;

/**
 * Backend codes of the wire format (contract section 2).
 *
 * @example
 * ```ts
 * expect(answer.code).toBe(BACKEND_CODES.insufficient);
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
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * Longest `external_id` accepted (characters); a longer one gets HTTP 400.
 *
 * @example
 * ```ts
 * const tooLong = 'x'.repeat(MAX_EXTERNAL_ID_LENGTH + 1);
 * ```
 */
export const MAX_EXTERNAL_ID_LENGTH = 255;

/**
 * Every body the backend answers (faults aside).
 *
 * @example
 * ```ts
 * const answer: Envelope = { code: 0, message: 'ok', data: { balance: 12 } };
 * ```
 */
export interface Envelope {
  code: number;
  message: string;
  data: Record<string, unknown> | null;
}

/**
 * An answer decided by the request handler, written by the server (or, for a
 * `dropAfterApply` fault, never written).
 *
 * @example
 * ```ts
 * const reply: Reply = okReply({ balance: 12 });
 * ```
 */
export interface Reply {
  status: number;
  body: Envelope;
  headers?: Record<string, string>;
}

/**
 * A successful answer: HTTP 200, code 0.
 *
 * @example
 * ```ts
 * okReply({ free_remaining: 2, is_credit: false });
 * ```
 */
export function okReply(data: Record<string, unknown>): Reply {
  return { status: 200, body: { code: BACKEND_CODES.ok, message: 'ok', data } };
}

/**
 * A business refusal: HTTP 200 with a non-zero code and no data.
 *
 * @example
 * ```ts
 * businessReply(BACKEND_CODES.blacklisted, 'user is blacklisted');
 * ```
 */
export function businessReply(code: number, message: string): Reply {
  return { status: 200, body: { code, message, data: null } };
}

/**
 * A transport-level error: the HTTP status, reused as the (non-zero) code so
 * that a body read without its status still says what went wrong.
 *
 * @example
 * ```ts
 * errorReply(405, 'method not allowed', { Allow: 'GET' });
 * ```
 */
export function errorReply(status: number, message: string, headers?: Record<string, string>): Reply {
  const reply: Reply = { status, body: { code: status, message, data: null } };
  if (headers !== undefined) reply.headers = headers;
  return reply;
}
