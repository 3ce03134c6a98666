import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import crossFetch from 'cross-fetch';
import {
  createReferenceBackend,
  REFERENCE_PATHS,
  startReferenceBackend,
  type InProcessReferenceBackend,
  type ReferenceBackend,
  type ReferenceBackendOptions,
  type ReferenceUser,
} from '../../lib/testing';
import type { FetchLike } from '../../lib';

export const MODULE = 'generator_demo';

/** The two ways to reach the reference backend; the contract suite runs through both. */
export type TransportName = 'in-process fetch' | 'HTTP';
export const TRANSPORTS: readonly TransportName[] = ['in-process fetch', 'HTTP'];

/** Any origin will do for the in-process fetch: it routes by path. */
const IN_PROCESS_ORIGIN = 'http://billing.test';

/** A reference backend and the transport its requests go through. */
export interface ContractBackend extends InProcessReferenceBackend {
  readonly transport: TransportName;
  /** The server's URL, or any origin for the in-process fetch. */
  readonly url: string;
  /** What a client reaches it with: the in-process fetch, or cross-fetch (Node's http, a real socket). */
  readonly clientFetch: FetchLike;
  /** Sends a request for `target` (path and query) over the transport under test. */
  send(target: string, init?: RequestInit): Promise<Response>;
}

/** Starts a backend reached over `transport`: a server on 127.0.0.1, or `createReferenceBackend`. */
export async function openBackend(
  transport: TransportName,
  options: ReferenceBackendOptions = {},
): Promise<ContractBackend> {
  if (transport === 'HTTP') return overHttp(await startReferenceBackend(options));
  const backend = createReferenceBackend(options);
  const send = (target: string, init?: RequestInit) => backend.fetch(`${IN_PROCESS_ORIGIN}${target}`, init);
  return { ...backend, transport, url: IN_PROCESS_ORIGIN, clientFetch: backend.fetch, send };
}

/** A started backend, reached over HTTP. */
export function overHttp(backend: ReferenceBackend): ContractBackend {
  const send = (target: string, init?: RequestInit) => fetch(`${backend.url}${target}`, init);
  return { ...backend, transport: 'HTTP', clientFetch: crossFetch as FetchLike, send };
}

/** A user with a fresh token per call, so suites sharing one backend never collide. */
let counter = 0;
export function makeUser(overrides: Partial<ReferenceUser> = {}): ReferenceUser {
  counter += 1;
  return {
    token: `token-${counter}-${Math.random().toString(36).slice(2)}`,
    freeRemaining: 2,
    freeTotal: 2,
    creditsPerUse: 10,
    creditsBalance: 25,
    ...overrides,
  };
}

/** A JSON answer: status, headers and the parsed body. */
export type JsonAnswer = { status: number; headers: Headers; body: unknown };

async function send(
  backend: ContractBackend,
  token: string,
  target: string,
  init: RequestInit = {},
): Promise<JsonAnswer> {
  const response = await backend.send(target, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...init.headers },
  });
  return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) as unknown };
}

export const getCount = (backend: ContractBackend, token: string, module = MODULE): Promise<JsonAnswer> =>
  send(backend, token, `${REFERENCE_PATHS.freeTrialCount}?module=${encodeURIComponent(module)}`);

export const getBalance = (backend: ContractBackend, token: string): Promise<JsonAnswer> =>
  send(backend, token, REFERENCE_PATHS.balance);

export const postConsume = (backend: ContractBackend, token: string, externalId: string, module = MODULE) =>
  send(backend, token, REFERENCE_PATHS.consume, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ module, external_id: externalId }),
  });

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawOptions {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  /** Sent and ended; omit with `keepOpen` to send headers only. */
  body?: string | Buffer;
  /** Do not end the request: the answer must come before the body is complete (HTTP only). */
  keepOpen?: boolean;
}

/**
 * One request with raw control of bytes and headers. Over HTTP: a fresh
 * connection (no keep-alive agent), exactly the headers given (fetch would
 * add a content type). In-process: the backend's fetch with the same method,
 * headers and bytes. Resolves with the full answer; rejects when the backend
 * drops the request.
 */
export function rawRequest(backend: ContractBackend, options: RawOptions): Promise<RawAnswer> {
  if (backend.transport !== 'HTTP') return rawInProcess(backend, options);
  const url = backend.url;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${options.path}`,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
          if (options.keepOpen === true) req.destroy();
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.keepOpen === true) {
      if (options.body !== undefined) req.write(options.body);
      req.flushHeaders();
    } else {
      req.end(options.body);
    }
  });
}

async function rawInProcess(backend: ContractBackend, options: RawOptions): Promise<RawAnswer> {
  if (options.keepOpen === true) throw new Error('keepOpen needs a socket: HTTP only');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name] = String(value);
  const init: RequestInit = { method: options.method ?? 'GET', headers };
  // Bytes, not a string: a string body would get fetch's text/plain content type.
  if (options.body !== undefined) init.body = new Uint8Array(Buffer.from(options.body));
  const response = await backend.send(options.path, init);
  const answerHeaders: IncomingHttpHeaders = {};
  response.headers.forEach((value, name) => (answerHeaders[name] = value));
  return { status: response.status, headers: answerHeaders, text: await response.text() };
}

/** Asserts the JSON error body of a transport-level failure. */
export function expectErrorBody(body: unknown, code?: number): void {
  expect(body).toEqual({ code: expect.any(Number), message: expect.any(String), data: null });
  const envelope = body as { code: number; message: string };
  expect(envelope.code).not.toBe(0);
  expect(envelope.message.length).toBeGreaterThan(0);
  if (code !== undefined) expect(envelope.code).toBe(code);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
