import type { BackendRequest, BackendResponse } from './exchange';

// What the client sends: its `headers` option may add more, which a
// preflight names in Access-Control-Request-Headers and gets allowed too.
const ALLOWED_HEADERS = ['authorization', 'content-type', 'accept'];
// The client reads both to honour Retry-After; neither is CORS-safelisted.
const EXPOSED_HEADERS = 'Retry-After, Date';
const MAX_AGE_SECONDS = '600';

/**
 * Whether a request is a CORS preflight: `OPTIONS` naming the method to come.
 */
export function isPreflight(request: BackendRequest): boolean {
  return request.method === 'OPTIONS' && request.header('access-control-request-method') !== undefined;
}

function allowOrigin(request: BackendRequest): Record<string, string> {
  const origin = request.header('origin');
  // Echoed rather than `*` when known, so that a page sending credentials works too.
  if (origin === undefined) return { 'Access-Control-Allow-Origin': '*' };
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}

/**
 * The answer to a preflight: 204, any origin, GET and POST, the client's
 * headers and whatever else the page asked for, cached for ten minutes.
 */
export function preflightAnswer(request: BackendRequest): BackendResponse {
  const requested = (request.header('access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => /^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name));
  const headers: Record<string, string> = {
    ...allowOrigin(request),
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '),
    'Access-Control-Max-Age': MAX_AGE_SECONDS,
  };
  // Chromium asks before a public page may reach a loopback server.
  if (request.header('access-control-request-private-network') === 'true') {
    headers['Access-Control-Allow-Private-Network'] = 'true';
  }
  return { kind: 'answer', status: 204, headers, body: '' };
}

/**
 * The headers of the event stream for a page on another origin, which reads it
 * with its cookies (`EventSource` with `withCredentials`): its origin echoed,
 * credentials allowed. None without an `Origin`; the caller adds none with
 * `cors: false`, so no origin is ever allowed credentials that `cors` refuses.
 */
export function streamCorsHeaders(request: BackendRequest): Record<string, string> {
  const origin = request.header('origin');
  return origin === undefined
    ? {}
    : { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
}

/**
 * Adds the headers that let a page on another origin read a response.
 */
export function withCorsHeaders(request: BackendRequest, response: BackendResponse): BackendResponse {
  if (response.kind !== 'answer' && response.kind !== 'stall') return response;
  return {
    ...response,
    headers: { ...response.headers, ...allowOrigin(request), 'Access-Control-Expose-Headers': EXPOSED_HEADERS },
  };
}
