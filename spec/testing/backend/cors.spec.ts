import { REFERENCE_PATHS, type ReferenceUser } from '../../../lib/testing';
import { TRANSPORTS, getBalance, makeUser, openBackend, postConsume, type ContractBackend } from '../http-helpers';

const ORIGIN = 'http://localhost:5173';

function preflight(backend: ContractBackend, path: string, requestHeaders = 'authorization, content-type') {
  return backend.send(path, {
    method: 'OPTIONS',
    headers: {
      Origin: ORIGIN,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': requestHeaders,
    },
  });
}

describe.each(TRANSPORTS)('reference backend: CORS on by default (%s)', (transport) => {
  let backend: ContractBackend;
  let user: ReferenceUser;
  beforeAll(async () => {
    user = makeUser({ freeRemaining: 1 });
    backend = await openBackend(transport, { users: [user] });
  });
  afterAll(() => backend.close());
  beforeEach(() => backend.clearLog());

  test('a preflight gets 204 allowing the origin, GET and POST, the client headers, with a max-age', async () => {
    const answer = await preflight(backend, REFERENCE_PATHS.consume, 'authorization, content-type, x-request-id');
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
    expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(answer.headers.get('vary')).toBe('Origin');
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, POST');
    const allowed = answer.headers.get('access-control-allow-headers')?.split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-request-id']));
    expect(Number(answer.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  test('a preflight is not logged and does not take a queued fault', async () => {
    backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'status', status: 503 });
    expect((await preflight(backend, REFERENCE_PATHS.balance)).status).toBe(204);
    expect(backend.requests()).toEqual([]);
    expect(backend.pendingFaults(REFERENCE_PATHS.balance)).toBe(1);
    expect((await getBalance(backend, user.token)).status).toBe(503);
  });

  test('every answer carries Access-Control-Allow-Origin and exposes Retry-After and Date', async () => {
    const withOrigin = await backend.send(REFERENCE_PATHS.balance, {
      headers: { Authorization: `Bearer ${user.token}`, Origin: ORIGIN },
    });
    expect(withOrigin.status).toBe(200);
    expect(withOrigin.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(withOrigin.headers.get('access-control-expose-headers')).toBe('Retry-After, Date');
    const anonymous = await getBalance(backend, 'nobody');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('access-control-allow-origin')).toBe('*');
    backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 429, retryAfter: '3' });
    const limited = await postConsume(backend, user.token, 'cors-429');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a plain OPTIONS (no Access-Control-Request-Method) is not a preflight: 405', async () => {
    const answer = await backend.send(REFERENCE_PATHS.balance, { method: 'OPTIONS' });
    expect(answer.status).toBe(405);
  });
});

describe.each(TRANSPORTS)('reference backend: cors: false (%s)', (transport) => {
  let backend: ContractBackend;
  let user: ReferenceUser;
  beforeAll(async () => {
    user = makeUser();
    backend = await openBackend(transport, { users: [user], cors: false });
  });
  afterAll(() => backend.close());

  test('a preflight gets 405 with Allow and no CORS header, and is logged like any request', async () => {
    const answer = await preflight(backend, REFERENCE_PATHS.consume);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(backend.requests().map((r) => `${r.method} ${r.status}`)).toEqual(['OPTIONS 405']);
  });

  test('answers carry no Access-Control-Allow-Origin', async () => {
    const answer = await backend.send(REFERENCE_PATHS.balance, {
      headers: { Authorization: `Bearer ${user.token}`, Origin: ORIGIN },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
