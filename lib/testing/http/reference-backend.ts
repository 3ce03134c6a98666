import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { createBackendCore } from '../backend/backend-core';
import type { ReferenceBackend, ReferenceBackendOptions } from './server-types';
import type { BackendRequest } from '../backend/exchange';
import { inProcessFetch } from './in-process-fetch';
import { readBody } from './read-body';
import { serveChanges } from './serve-changes';
import { serveResponse } from './serve-reply';
import { REFERENCE_CHANGES_PATH } from '../backend/change-stream';

// Loaded when a server is started, never at import: `unified-billing/testing`
// goes into browser bundles for `createReferenceBackend`, and bundlers must
// not see a Node built-in there. The specifier is a variable for that reason.
// The CJS build turns this import() into a require (scripts/build.mjs): Jest
// refuses import() in CJS code without --experimental-vm-modules.
const HTTP_MODULE = 'node:http';
function loadHttp(): Promise<typeof import('node:http')> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ HTTP_MODULE);
}

/**
 * Starts the reference backend: the three calls of the wire format over
 * Node's `http`, with in-memory state and test hooks. Rejects if a user is
 * invalid or the port cannot be bound. Its `fetch` reaches the same backend
 * in-process; `createReferenceBackend` is the same without a server.
 *
 * @example
 * ```ts
 * import { startReferenceBackend } from 'unified-billing/testing';
 *
 * const backend = await startReferenceBackend({
 *   users: [{ token: 'alice-token', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 25 }],
 * });
 * const client = createClient({
 *   baseUrl: backend.url,
 *   appKey: 'demo',
 *   headers: { Authorization: 'Bearer alice-token' },
 * });
 * // ...
 * await backend.close();
 * ```
 */
export async function startReferenceBackend(options: ReferenceBackendOptions = {}): Promise<ReferenceBackend> {
  const { port = 0, host = '127.0.0.1', fallback } = options;
  const core = createBackendCore(options);
  const fetch = inProcessFetch(core);
  const { createServer } = await loadHttp();
  const sockets = new Set<Socket>();
  let closing: Promise<void> | undefined;

  const server: Server = createServer((req, res) => {
    const request = nodeRequest(req);
    // The event stream is no call of the contract: no fault, no log; a CORS preflight goes the usual way.
    const stream = req.method !== 'OPTIONS' && (req.url ?? '').split('?')[0] === REFERENCE_CHANGES_PATH;
    if (stream && !core.closed) return serveChanges(core, request, res);
    const offer = fallback === undefined ? undefined : () => fallback(req, res);
    void core.handle(request, offer).then(({ response, record }) => serveResponse(res, response, record));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    ...core.hooks,
    url: `http://${urlHost}:${boundPort}`,
    port: boundPort,
    fetch,
    close() {
      closing ??= new Promise<void>((resolve) => {
        core.close();
        server.close(() => resolve());
        // Keep-alive and stalled sockets would otherwise hold close() open.
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

function nodeRequest(req: IncomingMessage): BackendRequest {
  return {
    method: req.method ?? '',
    target: req.url ?? '/',
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    readBody: (limit) => readBody(req, limit),
  };
}
