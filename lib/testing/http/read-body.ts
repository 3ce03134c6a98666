import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, decodeBody } from '../backend/body-errors';

/**
 * Reads a request body as UTF-8 text, at most `limit` bytes. A declared
 * `Content-Length` over the limit is refused without reading anything; a body
 * that grows past it is refused as soon as it does, and reading stops (the
 * request is paused), so memory stays bounded whatever the client sends.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      try {
        resolve(decodeBody(Buffer.concat(chunks), limit));
      } catch (error) {
        reject(error);
      }
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    // 'close' before 'end' means the client went away mid-body.
    const onClose = (): void => {
      if (req.complete) return;
      cleanup();
      reject(new Error('request aborted before its body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
