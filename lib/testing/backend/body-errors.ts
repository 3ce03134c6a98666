import { utf8Decode } from './utf8';

/**
 * Rejection of a body read when the body is larger than the limit.
 */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Rejection of a body read when the body is not valid UTF-8.
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
 */
export function decodeBody(bytes: Uint8Array, limit: number): string {
  if (bytes.byteLength > limit) throw new BodyTooLargeError(limit);
  try {
    return utf8Decode(bytes);
  } catch {
    throw new InvalidEncodingError();
  }
}
