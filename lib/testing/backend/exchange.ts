import type { RequestRecord } from '../types';

/**
 * One request as the reference backend's handler sees it, whatever carried
 * it: Node's `http` server or the in-process `fetch`.
 */
export interface BackendRequest {
  /** Upper-case method, e.g. `GET`. */
  readonly method: string;
  /** Path and query as sent, e.g. `/ai/v5/service/free_trial/count?module=generator_demo`. */
  readonly target: string;
  /** A header's value by lower-case name; `undefined` when absent. */
  header(name: string): string | undefined;
  /**
   * The body as UTF-8 text, at most `limit` bytes; rejects with
   * `BodyTooLargeError` or `InvalidEncodingError`, or any other error when
   * the client went away mid-body.
   */
  readBody(limit: number): Promise<string>;
}

/**
 * What the handler decided, for the transport to carry out:
 * - `answer`: a whole response;
 * - `drop`: no response, the connection is reset;
 * - `stall`: the status, the headers and the start of a body, then silence
 *   until the client gives up or the backend closes;
 * - `fallback`: the transport's own fallback answered (HTTP only).
 */
export type BackendResponse =
  | {
      readonly kind: 'answer' | 'stall';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    }
  | { readonly kind: 'drop' }
  | { readonly kind: 'fallback' };

/**
 * A decided response and the log record of its request (`null` for a CORS
 * preflight, which is not logged); the transport sets `record.status` once
 * the answer is really delivered.
 */
export interface Handled {
  readonly response: BackendResponse;
  readonly record: RequestRecord | null;
}
