import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ReferenceBackend, ReferenceBackendOptions } from './backend-types';
import { FaultQueue } from './faults';
import { bearerToken, handleRequest, isApiPath } from './handle-request';
import { ReferenceState } from './reference-state';
import { answerWithFault, writeReply } from './serve-reply';
import type { Fault, RequestRecord } from './types';
import { errorReply } from './wire';

// The request log keeps the latest entries only.
const MAX_LOG_ENTRIES = 10_000;

/**
 * Starts the reference backend: the three calls of the wire format over
 * Node's `http`, with in-memory state and test hooks. Rejects if a user is
 * invalid or the port cannot be bound.
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
  const { port = 0, host = '127.0.0.1', users = [], fallback } = options;
  const state = new ReferenceState(users);
  const faults = new FaultQueue();
  const log: RequestRecord[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing: Promise<void> | undefined;

  const handle = (
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
    params: URLSearchParams,
    fault?: Fault,
  ): void => {
    if (fault === undefined && fallback !== undefined && !isApiPath(record.path)) {
      try {
        if (fallback(req, res)) {
          res.on('finish', () => (record.status = res.statusCode));
          return;
        }
      } catch {
        // A throwing fallback must not take the backend down with it.
        writeReply(res, errorReply(500, 'internal error'), record);
        return;
      }
    }
    handleRequest(req, record.path, params, state, record).then(
      (reply) => {
        if (fault?.kind === 'dropAfterApply') {
          // Applied, but the client never learns the outcome.
          record.code = reply.body.code;
          res.socket?.destroy();
          return;
        }
        writeReply(res, reply, record);
      },
      () => {
        // A client that went away mid-body gets nothing; anything else is our bug.
        if (!req.destroyed) writeReply(res, errorReply(500, 'internal error'), record);
      },
    );
  };

  const server: Server = createServer((req, res) => {
    const { path, params } = splitUrl(req.url);
    const record: RequestRecord = {
      method: req.method ?? '',
      path,
      query: firstValues(params),
      status: null,
      at: Date.now(),
    };
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined) record.token = token;
    log.push(record);
    // Bounded, so that a long-running playground does not grow without limit.
    if (log.length > MAX_LOG_ENTRIES) log.shift();
    // Taken on arrival, so concurrent requests get faults in arrival order.
    const fault = faults.take(path);
    if (fault === undefined) return handle(req, res, record, params);
    record.fault = fault.kind;
    if (answerWithFault(res, fault, record)) return;
    if (fault.kind === 'delay') {
      const timer = setTimeout(() => {
        timers.delete(timer);
        handle(req, res, record, params);
      }, fault.ms);
      timers.add(timer);
      return;
    }
    handle(req, res, record, params, fault);
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
    url: `http://${urlHost}:${boundPort}`,
    port: boundPort,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        // Keep-alive and stalled sockets would otherwise hold close() open.
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
    addUser: (user) => state.addUser(user),
    setUser: (token, patch, module) => state.setUser(token, patch, module),
    getUser: (token, module) => state.snapshot(token, module),
    charges: () => state.charges(),
    requests: () => structuredClone(log),
    clearLog: () => {
      log.length = 0;
    },
    failNext: (path, n, fault) => faults.add(path, n, fault),
    pendingFaults: (path) => faults.pending(path),
    reset: () => {
      state.reset();
      faults.clear();
      log.length = 0;
    },
  };
}

function splitUrl(url: string | undefined): { path: string; params: URLSearchParams } {
  // Not `new URL(req.url, base)`: a request target like `//host/x` would be
  // read as another host.
  const raw = url ?? '/';
  const mark = raw.indexOf('?');
  if (mark === -1) return { path: raw, params: new URLSearchParams() };
  return { path: raw.slice(0, mark), params: new URLSearchParams(raw.slice(mark + 1)) };
}

function firstValues(params: URLSearchParams): Record<string, string> {
  // Through a Map: names like `__proto__` or `constructor` must be kept as data.
  const first = new Map<string, string>();
  for (const [name, value] of params) if (!first.has(name)) first.set(name, value);
  return Object.fromEntries(first);
}
