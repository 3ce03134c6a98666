import { answerError, backendError, fetchError, malformedError } from '../../lib/transport/failure';
import type { HttpResponse } from '../../lib/transport/http';

// The errors of a request (lib/transport/failure.ts), built directly, in both
// builds: the code and the facts are the same; a development build describes
// the failure and what to check, a production build names the request only.
// The end-to-end specs (error-messages, network-errors, fetch-setup) show the
// same errors from a client; these pin each branch of the builder.

const WHERE = 'GET https://api.example.com/ai/v1/credit/getBalance';
const TOKEN = 'tok-7f3a9c2e51d04b8a';
const HEADERS = { authorization: `Bearer ${TOKEN}` };
const REQUEST = { where: WHERE, headers: HEADERS };
const HTML = '<!doctype html><title>app</title>';

function answer(status: number, text: string, headers: Record<string, string> = {}): HttpResponse {
  return { status, text, headers: { get: (name) => headers[name] ?? null } };
}

// A fetch error as a runtime gives it: a name, a message, maybe a system code, maybe a cause.
function thrownBy(name: string, message: string, extra: object = {}): Error {
  const error = Object.assign(new Error(message), extra);
  Object.defineProperty(error, 'name', { value: name });
  return error;
}

const modes = ['development', 'production'] as const;
const before = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = before;
});

describe.each(modes)('in a %s build', (mode) => {
  const dev = mode === 'development';
  beforeEach(() => {
    process.env.NODE_ENV = mode;
  });
  const byMode = (development: string, production: string) => (dev ? development : production);

  describe('answerError: a status outside 2xx', () => {
    it.each<[string, HttpResponse, string]>([
      [
        'a 401 points at the headers',
        answer(401, '{"message":"token expired"}'),
        ': token expired; check the headers option (credentials)',
      ],
      ['a 403 points at the headers', answer(403, '{"message":""}'), '; check the headers option (credentials)'],
      ['a 404 points at baseUrl', answer(404, '{"message":"no route"}'), ': no route; check baseUrl'],
      [
        'an HTML page points at baseUrl',
        answer(500, 'oops', { 'content-type': 'text/HTML' }),
        ' (text/HTML, not JSON); check baseUrl',
      ],
      [
        'a body that starts with a tag points at baseUrl',
        answer(502, `  ${HTML}`),
        ' (no content type, not JSON); check baseUrl',
      ],
      ['a page body only counts from its start', answer(500, 'a < b'), ' (no content type, not JSON)'],
      ['a 500 with a message has no hint', answer(500, '{"message":"down"}'), ': down'],
      ['a JSON body whose message is not a string quotes nothing', answer(500, '{"message":7}'), ''],
      [
        'a body that is not JSON gives its type',
        answer(503, 'busy', { 'content-type': 'text/plain' }),
        ' (text/plain, not JSON)',
      ],
    ])('%s', (_, response, detail) => {
      const error = answerError(response, REQUEST);
      expect(error).toMatchObject({ code: 'http', status: response.status });
      expect(error.message).toBe(
        byMode(`HTTP ${response.status} on ${WHERE}${detail}`, `HTTP ${response.status} on ${WHERE}`),
      );
    });

    it('carries Retry-After, clamped, and quotes the message redacted and cut at 200 characters', () => {
      const text = JSON.stringify({ message: `expired ${TOKEN} ${'x'.repeat(300)}` });
      const error = answerError(answer(429, text, { 'retry-after': '120' }), REQUEST);
      expect(error).toMatchObject({ code: 'http', status: 429, retryAfterMs: 30_000 });
      expect(error.message).not.toContain(TOKEN);
      if (dev) {
        expect(error.message).toContain('expired [redacted] x');
        expect(error.message).toHaveLength(`HTTP 429 on ${WHERE}: `.length + 200);
      }
    });

    it('has no retryAfterMs without a valid Retry-After', () => {
      expect(answerError(answer(503, ''), REQUEST).retryAfterMs).toBeUndefined();
    });
  });

  describe('malformedError: a 2xx body that does not decode', () => {
    it('names the reason, and the content type when the body is not JSON', () => {
      const page = malformedError(answer(200, HTML, { 'content-type': 'text/html' }), REQUEST, 'not JSON');
      expect(page).toMatchObject({ code: 'decode' });
      expect(page.status).toBeUndefined();
      expect(page.message).toBe(
        byMode(
          `Malformed response body on ${WHERE} (HTTP 200, text/html): not JSON; check baseUrl`,
          `Malformed response body on ${WHERE} (HTTP 200)`,
        ),
      );
      const field = malformedError(answer(299, '{"code":0}'), REQUEST, 'message is not a string');
      expect(field.message).toBe(
        byMode(
          `Malformed response body on ${WHERE} (HTTP 299): message is not a string`,
          `Malformed response body on ${WHERE} (HTTP 299)`,
        ),
      );
    });
  });

  describe('backendError: an envelope code the call does not expect', () => {
    it('carries the code and quotes the message redacted', () => {
      const error = backendError({ code: 50001, message: `bad ${TOKEN}`, data: null }, REQUEST);
      expect(error).toMatchObject({ code: 'backend', backendCode: 50001 });
      expect(error.message).toBe(
        byMode(`Backend answered code 50001 on ${WHERE}: bad [redacted]`, `Backend answered code 50001 on ${WHERE}`),
      );
    });
  });

  describe('fetchError: a fetch that failed', () => {
    it('a rejection is a network error, named by its system code', () => {
      const error = fetchError(thrownBy('Error', `connect to ${TOKEN}`, { code: 'ECONNREFUSED' }), REQUEST);
      expect(error).toMatchObject({ code: 'network' });
      expect(error.message).toBe(byMode(`${WHERE} failed: connection refused (ECONNREFUSED)`, `${WHERE} failed`));
      if (dev) {
        expect(error.cause).toMatchObject({ name: 'Error', code: 'ECONNREFUSED', message: 'connect to [redacted]' });
        expect((error.cause as Error).stack).toBe('Error: connect to [redacted]');
      } else {
        expect(error.cause).toBeUndefined();
      }
    });

    it.each<[string, Error, string]>([
      ['host not found', thrownBy('Error', 'dns', { code: 'ENOTFOUND' }), 'host not found (ENOTFOUND)'],
      ['connection reset', thrownBy('Error', 'reset', { code: 'ECONNRESET' }), 'connection reset (ECONNRESET)'],
      ['any other code as it is', thrownBy('Error', 'x', { code: 'EPIPE' }), 'network error (EPIPE)'],
      [
        "a code on the error's cause",
        thrownBy('TypeError', 'fetch failed', { cause: { code: 'ETIMEDOUT' } }),
        'network error (ETIMEDOUT)',
      ],
      [
        'a browser TypeError',
        thrownBy('TypeError', 'Failed to fetch'),
        'no response (TypeError): a network error or a CORS block, see the browser console',
      ],
      ['another error by its name', thrownBy('AbortError', 'gone'), 'AbortError'],
      ['a name that is no error name as Error', thrownBy('not an error', 'gone'), 'Error'],
      ['a code that is no system code is ignored', thrownBy('Error', 'x', { code: 'lower-case' }), 'Error'],
      ['a code with more after it is ignored', thrownBy('Error', 'x', { code: 'EPIPE-x' }), 'Error'],
      ['a code with more before it is ignored', thrownBy('Error', 'x', { code: 'xEPIPE' }), 'Error'],
      ['a code that is not a string is ignored', thrownBy('Error', 'x', { code: ['EPIPE'] }), 'Error'],
      ['a name with more before it as Error', thrownBy('xFooError', 'x'), 'Error'],
      ['a name with more after it as Error', thrownBy('FooErrorx', 'x'), 'Error'],
    ])('%s', (_, thrown, phrase) => {
      const error = fetchError(thrown, REQUEST);
      expect(error).toMatchObject({ code: 'network' });
      expect(error.message).toBe(byMode(`${WHERE} failed: ${phrase}`, `${WHERE} failed`));
    });

    it('a name or code quoting a header value is not copied to the cause', () => {
      const thrown = thrownBy('Error', 'x', { code: 'ESECRET7F3A9C2E' });
      const error = fetchError(thrown, { where: WHERE, headers: { authorization: 'Bearer ESECRET7F3A9C2E' } });
      if (dev) {
        expect((error.cause as { code?: string }).code).toBeUndefined();
        expect(error.message).toBe(`${WHERE} failed: Error`);
      }
    });

    it('a thrown value that is not an error is quoted as text', () => {
      const error = fetchError('offline', REQUEST);
      expect(error).toMatchObject({ code: 'network' });
      if (dev) {
        expect(error.cause).toMatchObject({ name: 'Error', message: 'offline' });
        expect(error.cause).not.toHaveProperty('code');
      }
    });

    it('a fetch that threw before sending is a setup error, naming what it threw', () => {
      const error = fetchError(thrownBy('TypeError', 'Illegal invocation'), REQUEST, true);
      expect(error).toMatchObject({ code: 'invalid_argument' });
      expect(error.message).toBe(
        byMode(
          `${WHERE}: fetch threw before sending (TypeError: Illegal invocation): pass a working \`fetch\` to createClient`,
          `${WHERE}: no working fetch`,
        ),
      );
    });

    it('a missing global is a setup error even when the fetch rejects; "not a function" says there is no fetch', () => {
      const missing = fetchError(new ReferenceError('Response is not defined'), REQUEST);
      expect(missing).toMatchObject({ code: 'invalid_argument' });
      const none = fetchError(new TypeError('fetch is not a function'), REQUEST, true);
      expect(none.message).toBe(
        byMode(`${WHERE}: no fetch function: pass a working \`fetch\` to createClient`, `${WHERE}: no working fetch`),
      );
    });
  });
});
