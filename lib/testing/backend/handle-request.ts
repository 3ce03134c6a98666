import { BodyTooLargeError, InvalidEncodingError } from './body-errors';
import { cookieValue, REFERENCE_COOKIES } from './cookies';
import type { BackendRequest } from './exchange';
import type { ReferenceState } from './reference-state';
import type { RequestRecord } from '../types';
import { MAX_BODY_BYTES, MAX_EXTERNAL_ID_LENGTH, REFERENCE_PATHS, errorReply, okReply, type Reply } from './wire';

// A Map, not an object: a path like `/__proto__` must not find a route.
const ROUTE_METHODS = new Map<string, string>([
  [REFERENCE_PATHS.freeTrialCount, 'GET'],
  [REFERENCE_PATHS.balance, 'GET'],
  [REFERENCE_PATHS.consume, 'POST'],
]);

// Strict on purpose: a client that forgets the prefix or sends an empty app
// key should fail loudly in its tests rather than charge a phantom module.
const MODULE_PATTERN = /^generator_.+$/;
const MAX_MODULE_LENGTH = 255;

/**
 * Whether the path is one of the three backend calls.
 */
export function isApiPath(path: string): boolean {
  return ROUTE_METHODS.has(path);
}

/**
 * Reads the bearer token of an `Authorization` header (scheme case-insensitive).
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Decides the answer to one request of a known or unknown path, applying it to
 * the state, whatever transport carried it. Checks run in the order 404, 405, 401, then the request's own
 * validation, so that nothing is read or changed for a request that fails one.
 * Fills `record.body` when a body was read. Every bad input is a 4xx reply,
 * never a thrown error, and never changes the state.
 */
export async function handleRequest(
  req: BackendRequest,
  path: string,
  query: URLSearchParams,
  state: ReferenceState,
  record: RequestRecord,
): Promise<Reply> {
  const method = ROUTE_METHODS.get(path);
  if (method === undefined) return errorReply(404, 'not found');
  if (req.method !== method) return errorReply(405, 'method not allowed', { Allow: method });
  const token = bearerToken(req.header('authorization'));
  if (token === undefined || !state.has(token)) {
    return errorReply(401, 'unauthenticated', { 'WWW-Authenticate': 'Bearer' });
  }
  if (path === REFERENCE_PATHS.balance) return okReply(state.balance(token));
  if (path === REFERENCE_PATHS.freeTrialCount) {
    const modules = query.getAll('module');
    const module = modules[0];
    if (modules.length !== 1 || module === undefined || !isModule(module)) {
      return errorReply(400, 'query parameter module must be one generator_<app_key> value');
    }
    return okReply(state.freeTrialCount(token, module));
  }
  return consume(req, token, state, record);
}

async function consume(
  req: BackendRequest,
  token: string,
  state: ReferenceState,
  record: RequestRecord,
): Promise<Reply> {
  // 415, not 400: the body may be fine, it is the declared type we refuse.
  const mediaType = (req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return errorReply(415, 'content type must be application/json');
  }
  let text: string;
  try {
    text = await req.readBody(MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      // The rest of the body is never read: close the connection after answering.
      return errorReply(413, `body larger than ${MAX_BODY_BYTES} bytes`, { Connection: 'close' });
    }
    if (error instanceof InvalidEncodingError) return errorReply(400, 'body is not valid UTF-8');
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    record.body = text;
    return errorReply(400, 'body is not valid JSON');
  }
  record.body = body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return errorReply(400, 'body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const module = fields['module'];
  const externalId = fields['external_id'];
  if (typeof module !== 'string' || !isModule(module)) {
    return errorReply(400, 'module must be a generator_<app_key> string');
  }
  if (typeof externalId !== 'string' || externalId.length === 0 || externalId.length > MAX_EXTERNAL_ID_LENGTH) {
    return errorReply(400, `external_id must be a string of 1 to ${MAX_EXTERNAL_ID_LENGTH} characters`);
  }
  // The user may have been removed by reset() while the body was read.
  if (!state.has(token)) return errorReply(401, 'unauthenticated', { 'WWW-Authenticate': 'Bearer' });
  // Synchronous from here: no await between reading and writing the state.
  const answer = state.consume(token, module, externalId, cookieValue(req, REFERENCE_COOKIES.device));
  return { status: 200, body: answer };
}

function isModule(value: string): boolean {
  return value.length <= MAX_MODULE_LENGTH && MODULE_PATTERN.test(value);
}
