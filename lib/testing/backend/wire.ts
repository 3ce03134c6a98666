import { BACKEND_CODES, PATHS, type Envelope } from '../../shared/wire';

// One wire module for the client and the reference backend; these are its names in `unified-billing/testing`.
export { BACKEND_CODES, MAX_BODY_BYTES, MAX_EXTERNAL_ID_LENGTH } from '../../shared/wire';
export type { Envelope } from '../../shared/wire';

/**
 * The paths of the three backend calls, e.g. for `failNext`.
 *
 * @example
 * ```ts
 * backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'drop' });
 * ```
 */
export const REFERENCE_PATHS = PATHS;

/**
 * An answer decided by the request handler, written by the server (or, for a
 * `dropAfterApply` fault, never written).
 */
export interface Reply {
  status: number;
  body: Envelope;
  headers?: Record<string, string>;
}

/**
 * A successful answer: HTTP 200, code 0.
 */
export function okReply(data: Record<string, unknown>): Reply {
  return { status: 200, body: { code: BACKEND_CODES.ok, message: 'ok', data } };
}

/**
 * A business refusal: HTTP 200 with a non-zero code and no data.
 */
export function businessReply(code: number, message: string): Reply {
  return { status: 200, body: { code, message, data: null } };
}

/**
 * A transport-level error: the HTTP status, reused as the (non-zero) code so
 * that a body read without its status still says what went wrong.
 */
export function errorReply(status: number, message: string, headers?: Record<string, string>): Reply {
  const reply: Reply = { status, body: { code: status, message, data: null } };
  if (headers !== undefined) reply.headers = headers;
  return reply;
}
