import type { ServerResponse } from 'node:http';
import type { BackendResponse } from '../backend/exchange';
import type { RequestRecord } from '../types';

/**
 * Carries out a decided response on Node's `http`: writes an answer, starts a
 * stalled one, or destroys the socket; notes the status in the log record
 * once written. Does nothing if the client has gone or an answer was already
 * sent.
 */
export function serveResponse(res: ServerResponse, response: BackendResponse, record: RequestRecord | null): void {
  switch (response.kind) {
    case 'drop':
      res.socket?.destroy();
      return;
    case 'fallback':
      // The fallback wrote its own answer; its status is known once sent.
      if (record === null) return;
      if (res.writableFinished) record.status = res.statusCode;
      else res.on('finish', () => (record.status = res.statusCode));
      return;
    case 'answer':
    case 'stall':
      if (res.destroyed || res.headersSent) return;
      if (response.kind === 'answer') {
        res.writeHead(response.status, { ...response.headers, 'Content-Length': Buffer.byteLength(response.body) });
        res.end(response.body);
      } else {
        res.writeHead(response.status, response.headers);
        res.write(response.body);
      }
      if (record !== null) record.status = response.status;
  }
}
