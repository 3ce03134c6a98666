import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { REFERENCE_PATHS, type ReferenceBackend, type ReferenceUser } from '../../lib/testing';

export const MODULE = 'generator_demo';

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

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function toAnswer(response: Response): Promise<JsonAnswer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
}

export async function getCount(backend: ReferenceBackend, token: string, module = MODULE): Promise<JsonAnswer> {
  const url = `${backend.url}${REFERENCE_PATHS.freeTrialCount}?module=${encodeURIComponent(module)}`;
  return toAnswer(await fetch(url, { headers: { Authorization: `Bearer ${token}` } }));
}

export async function getBalance(backend: ReferenceBackend, token: string): Promise<JsonAnswer> {
  const url = `${backend.url}${REFERENCE_PATHS.balance}`;
  return toAnswer(await fetch(url, { headers: { Authorization: `Bearer ${token}` } }));
}

export async function postConsume(
  backend: ReferenceBackend,
  token: string,
  externalId: string,
  module = MODULE,
): Promise<JsonAnswer> {
  return toAnswer(
    await fetch(`${backend.url}${REFERENCE_PATHS.consume}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ module, external_id: externalId }),
    }),
  );
}

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
  /** Do not end the request: the answer must come before the body is complete. */
  keepOpen?: boolean;
}

/**
 * One request over a fresh connection (no keep-alive agent), for raw control
 * of bytes and headers; resolves with the full answer, rejects on a socket
 * error before one.
 */
export function rawRequest(backend: ReferenceBackend, options: RawOptions): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${backend.url}${options.path}`,
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
