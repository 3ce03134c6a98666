import type { ServerResponse } from 'node:http';
import type { Fault, RequestRecord } from './types';
import { errorReply, type Reply } from './wire';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a decided answer as JSON and notes its status and code in the log
 * record; does nothing if the client has gone or an answer was already sent.
 *
 * @example
 * ```ts
 * writeReply(res, okReply({ balance: 3 }), record);
 * ```
 */
export function writeReply(res: ServerResponse, reply: Reply, record: RequestRecord): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...reply.headers,
  });
  res.end(text);
  record.status = reply.status;
  record.code = reply.body.code;
}

/**
 * Carries out a fault that answers (or drops) without handling the request:
 * `drop`, `status`, `malformed` and `stall`. Returns `false` for the kinds that
 * wrap normal handling (`delay`, `dropAfterApply`), which the server runs.
 *
 * @example
 * ```ts
 * if (!answerWithFault(res, fault, record)) handleNormally();
 * ```
 */
export function answerWithFault(res: ServerResponse, fault: Fault, record: RequestRecord): boolean {
  switch (fault.kind) {
    case 'drop':
      res.socket?.destroy();
      return true;
    case 'status': {
      const headers = fault.retryAfter === undefined ? undefined : { 'Retry-After': fault.retryAfter };
      writeReply(res, errorReply(fault.status, 'injected failure', headers), record);
      return true;
    }
    case 'malformed': {
      const status = fault.status ?? 200;
      res.writeHead(status, {
        'Content-Type': fault.contentType ?? JSON_TYPE,
        'Content-Length': Buffer.byteLength(fault.body),
      });
      res.end(fault.body);
      record.status = status;
      return true;
    }
    case 'stall':
      // Headers and a body start, then silence: exercises a timeout that must
      // cover the body, not just the headers.
      res.writeHead(200, { 'Content-Type': JSON_TYPE });
      res.write('{"code":0,');
      record.status = 200;
      return true;
    case 'delay':
    case 'dropAfterApply':
      return false;
  }
}
