import type { BackendCore } from '../backend/backend-core';
import type { ReferenceFetch } from '../backend-types';
import { decodeBody } from '../backend/body-errors';
import type { BackendRequest, BackendResponse } from '../backend/exchange';
import { PlainResponse } from './plain-response';
import type { RequestRecord } from '../types';
import { utf8Encode } from '../backend/utf8';

// Statuses whose Response must have no body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` over the backend's one handler, with no socket: the request is
 * read the way a server would receive it, and every fault has its network
 * equivalent (a drop rejects like a reset connection, a stall sends a body
 * that never ends, an abort rejects with an `AbortError`). Answers with the
 * global `Response` where there is one, else with a `PlainResponse` (Jest's
 * jsdom environment); no Node built-in.
 */
export function inProcessFetch(core: BackendCore): ReferenceFetch {
  const stalled = new Set<(error: unknown) => void>();
  core.onClose(() => {
    // A socket destroyed under a body being read: undici says "terminated".
    for (const fail of stalled) fail(new TypeError('terminated'));
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
  stalled: Set<(error: unknown) => void>,
): Response {
  switch (response.kind) {
    case 'drop':
    case 'fallback':
      throw networkError('connection reset by the reference backend', 'ECONNRESET');
    case 'answer': {
      if (record !== null) record.status = response.status;
      const body = NULL_BODY.has(response.status) ? null : response.body;
      if (!hasFetchBodies()) {
        return new PlainResponse(async () => body ?? '', response.status, response.headers) as unknown as Response;
      }
      return new Response(body, { status: response.status, headers: response.headers });
    }
    case 'stall':
      if (record !== null) record.status = response.status;
      return stalledResponse(response, signal, stalled);
  }
}

// The start of a body, then nothing until the request's signal aborts or the backend closes.
function stalledResponse(
  response: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string },
  signal: AbortSignal | undefined,
  stalled: Set<(error: unknown) => void>,
): Response {
  const hold = (fail: (error: unknown) => void): void => {
    stalled.add(fail);
    signal?.addEventListener(
      'abort',
      () => {
        if (stalled.delete(fail)) fail(abortReason(signal));
      },
      { once: true },
    );
  };
  if (!hasFetchBodies()) {
    const content = () => new Promise<string>((_, reject) => hold(reject));
    return new PlainResponse(content, response.status, response.headers) as unknown as Response;
  }
  let own: ((error: unknown) => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(utf8Encode(response.body));
      own = (error) => controller.error(error);
      hold(own);
    },
    cancel() {
      if (own !== undefined) stalled.delete(own);
    },
  });
  return new Response(stream, { status: response.status, headers: response.headers });
}

// Node 18+, browsers and React Native have both; Jest's jsdom environment has neither.
function hasFetchBodies(): boolean {
  return typeof Response === 'function' && typeof ReadableStream === 'function';
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
    return utf8Encode(body);
  }
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof Response === 'function') return new Uint8Array(await new Response(body).arrayBuffer());
  // No Response (jsdom): the body kinds that need no Response to read.
  if (typeof URLSearchParams === 'function' && body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return utf8Encode(body.toString());
  }
  const blob = body as { arrayBuffer?: () => Promise<ArrayBuffer> };
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer());
  throw new TypeError('the in-process fetch reads a string, bytes, a Blob or URLSearchParams body here');
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
