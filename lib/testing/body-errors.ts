import { utf8Decode } from './utf8';

/**
 * Rejection of a body read when the body is larger than the limit.
 *
 * @example
 * ```ts
 * if (error instanceof BodyTooLargeError) return errorReply(413, 'payload too large');
 * ```
 */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Rejection of a body read when the body is not valid UTF-8.
 *
 * @example
 * ```ts
 * if (error instanceof InvalidEncodingError) return errorReply(400, 'body is not UTF-8');
 * ```
 */
export class InvalidEncodingError extends Error {
  constructor() {
    super('request body is not valid UTF-8');
    this.name = 'InvalidEncodingError';
  }
}

/**
 * Decodes a whole body as UTF-8 text, refusing one over `limit` bytes or not
 * valid UTF-8; no Node built-in nor TextDecoder, so the in-process transport
 * runs in browsers and in jsdom.
 *
 * @example
 * ```ts
 * const text = decodeBody(Uint8Array.of(0x7b, 0x7d), MAX_BODY_BYTES); // '{}'
 * ```
 */
export function decodeBody(bytes: Uint8Array, limit: number): string {
  if (bytes.byteLength > limit) throw new BodyTooLargeError(limit);
  try {
    return utf8Decode(bytes);
  } catch {
    throw new InvalidEncodingError();
  }
}
