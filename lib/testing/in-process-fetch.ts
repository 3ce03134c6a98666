import type { BackendCore } from './backend-core';
import type { ReferenceFetch } from './backend-types';
import { decodeBody } from './body-errors';
import type { BackendRequest, BackendResponse } from './exchange';
import type { RequestRecord } from './types';

// Statuses whose Response must have no body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` over the backend's one handler, with no socket: the request is
 * read the way a server would receive it, and every fault has its network
 * equivalent (a drop rejects like a reset connection, a stall sends a body
 * that never ends, an abort rejects with an `AbortError`). Needs the global
 * `Response` (Node 18+, browsers, React Native); no Node built-in.
 *
 * @example
 * ```ts
 * const fetch = inProcessFetch(createBackendCore({ users: [alice] }));
 * ```
 */
export function inProcessFetch(core: BackendCore): ReferenceFetch {
  const stalled = new Set<ReadableStreamDefaultController<Uint8Array>>();
  core.onClose(() => {
    // A socket destroyed under a body being read: undici says "terminated".
    for (const controller of stalled) controller.error(new TypeError('terminated'));
    stalled.clear();
  });
  return async (input, init = {}) => {
    const source = typeof Request !== 'undefined' && input instanceof Request ? input : undefined;
    const signal = init.signal ?? source?.signal ?? undefined;
    throwIfAborted(signal);
    if (core.closed) throw networkError('connection refused', 'ECONNREFUSED');
    const url = new URL(source?.url ?? String(input));
    const method = normaliseMethod(init.method ?? source?.method ?? 'GET');
    const headers = headerMap(init.headers ?? source?.headers);
    const body = init.body !== undefined ? init.body : source === undefined ? null : await source.arrayBuffer();
    const bytes = await bodyBytes(body ?? null, headers);
    throwIfAborted(signal);
    const request: BackendRequest = {
      method,
      target: `${url.pathname}${url.search}`,
      header: (name) => headers.get(name),
      readBody: async (limit) => decodeBody(bytes, limit),
    };
    // The backend keeps what it received even when the client stops waiting, as a server would.
    const { response, record } = await untilAborted(core.handle(request), signal);
    return toResponse(response, record, signal, stalled);
  };
}

function toResponse(
  response: BackendResponse,
  record: RequestRecord | null,
  signal: AbortSignal | undefined,
  stalled: Set<ReadableStreamDefaultController<Uint8Array>>,
): Response {
  switch (response.kind) {
    case 'drop':
    case 'fallback':
      throw networkError('connection reset by the reference backend', 'ECONNRESET');
    case 'answer': {
      if (record !== null) record.status = response.status;
      const body = NULL_BODY.has(response.status) ? null : response.body;
      return new Response(body, { status: response.status, headers: response.headers });
    }
    case 'stall': {
      if (record !== null) record.status = response.status;
      const start = new TextEncoder().encode(response.body);
      let own: ReadableStreamDefaultController<Uint8Array> | undefined;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          own = controller;
          controller.enqueue(start);
          stalled.add(controller);
          signal?.addEventListener(
            'abort',
            () => {
              if (!stalled.delete(controller)) return;
              controller.error(abortReason(signal));
            },
            { once: true },
          );
        },
        cancel() {
          if (own !== undefined) stalled.delete(own);
        },
      });
      return new Response(stream, { status: response.status, headers: response.headers });
    }
  }
}

function normaliseMethod(method: string): string {
  // As fetch does: the standard names are upper-cased, others kept as given.
  const upper = method.toUpperCase();
  return ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'].includes(upper) ? upper : method;
}

function headerMap(init: HeadersInit | undefined): Map<string, string> {
  const map = new Map<string, string>();
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const previous = map.get(key);
    map.set(key, previous === undefined ? String(value) : `${previous}, ${value}`);
  };
  if (init === undefined) return map;
  if (typeof (init as Headers).forEach === 'function' && !Array.isArray(init)) {
    (init as Headers).forEach((value, name) => add(name, value));
  } else if (Array.isArray(init)) {
    for (const [name, value] of init as Array<[string, string]>) add(name, value);
  } else {
    for (const [name, value] of Object.entries(init)) add(name, value);
  }
  return map;
}

async function bodyBytes(body: BodyInit | null, headers: Map<string, string>): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  if (typeof body === 'string') {
    // What fetch itself would declare for a string body.
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    return new TextEncoder().encode(body);
  }
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortReason(signal);
}

function abortReason(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) return signal.reason;
  if (typeof DOMException !== 'undefined') return new DOMException('This operation was aborted', 'AbortError');
  return Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
}

// What a failed fetch rejects with: a TypeError, the socket's error as its cause.
function networkError(message: string, code: string): TypeError {
  const cause = Object.assign(new Error(message), { code });
  return Object.assign(new TypeError('fetch failed'), { cause });
}
