import { MAX_BODY_BYTES, REFERENCE_PATHS, type ReferenceUser } from '../../../lib/testing';
import {
  MODULE,
  TRANSPORTS,
  expectErrorBody,
  getBalance,
  makeUser,
  openBackend,
  rawRequest,
  type ContractBackend,
  type RawAnswer,
  type RawOptions,
  type TransportName,
} from '../http-helpers';

const user: ReferenceUser = makeUser({ freeRemaining: 1, freeTotal: 1, creditsPerUse: 5, creditsBalance: 50 });
const auth = { Authorization: `Bearer ${user.token}` };
const json = { ...auth, 'Content-Type': 'application/json' };
const validBody = JSON.stringify({ module: MODULE, external_id: 'op-1' });

interface Case {
  name: string;
  status: number;
  request: RawOptions;
  headers?: Record<string, string>;
}

const cases: Case[] = [
  {
    name: 'malformed JSON',
    status: 400,
    request: { method: 'POST', path: REFERENCE_PATHS.consume, headers: json, body: '{"module":' },
  },
  {
    name: 'empty body',
    status: 400,
    request: { method: 'POST', path: REFERENCE_PATHS.consume, headers: json, body: '' },
  },
  {
    name: 'JSON array body',
    status: 400,
    request: { method: 'POST', path: REFERENCE_PATHS.consume, headers: json, body: '[]' },
  },
  {
    name: 'JSON null body',
    status: 400,
    request: { method: 'POST', path: REFERENCE_PATHS.consume, headers: json, body: 'null' },
  },
  {
    name: 'JSON string body',
    status: 400,
    request: { method: 'POST', path: REFERENCE_PATHS.consume, headers: json, body: '"hi"' },
  },
  ...(
    [
      ['missing module', { external_id: 'op-1' }],
      ['module not a string', { module: 7, external_id: 'op-1' }],
      ['module without the generator_ prefix', { module: 'demo', external_id: 'op-1' }],
      ['module with an empty app key', { module: 'generator_', external_id: 'op-1' }],
      ['missing external_id', { module: MODULE }],
      ['external_id not a string', { module: MODULE, external_id: 12 }],
      ['external_id null', { module: MODULE, external_id: null }],
      ['empty external_id', { module: MODULE, external_id: '' }],
      ['external_id of 256 characters', { module: MODULE, external_id: 'x'.repeat(256) }],
    ] as const
  ).map(([name, body]): Case => ({
    name,
    status: 400,
    request: { method: 'POST', path: REFERENCE_PATHS.consume, headers: json, body: JSON.stringify(body) },
  })),
  {
    name: 'body that is not UTF-8',
    status: 400,
    request: {
      method: 'POST',
      path: REFERENCE_PATHS.consume,
      headers: json,
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    },
  },
  {
    name: 'text/plain content type',
    status: 415,
    request: {
      method: 'POST',
      path: REFERENCE_PATHS.consume,
      headers: { ...auth, 'Content-Type': 'text/plain' },
      body: validBody,
    },
  },
  {
    name: 'no content type',
    status: 415,
    request: { method: 'POST', path: REFERENCE_PATHS.consume, headers: auth, body: validBody },
  },
  { name: 'GET count without module', status: 400, request: { path: REFERENCE_PATHS.freeTrialCount, headers: auth } },
  {
    name: 'GET count with an empty module',
    status: 400,
    request: { path: `${REFERENCE_PATHS.freeTrialCount}?module=`, headers: auth },
  },
  {
    name: 'GET count with two modules',
    status: 400,
    request: { path: `${REFERENCE_PATHS.freeTrialCount}?module=${MODULE}&module=generator_x`, headers: auth },
  },
  {
    name: 'POST to the count path',
    status: 405,
    headers: { allow: 'GET' },
    request: { method: 'POST', path: REFERENCE_PATHS.freeTrialCount, headers: json, body: validBody },
  },
  {
    name: 'GET on the consume path',
    status: 405,
    headers: { allow: 'POST' },
    request: { path: REFERENCE_PATHS.consume, headers: auth },
  },
  {
    name: 'DELETE on the balance path',
    status: 405,
    headers: { allow: 'GET' },
    request: { method: 'DELETE', path: REFERENCE_PATHS.balance, headers: auth },
  },
  { name: 'unknown path', status: 404, request: { path: '/ai/v9/nothing', headers: auth } },
  {
    name: 'known path with a trailing slash',
    status: 404,
    request: { method: 'POST', path: `${REFERENCE_PATHS.consume}/`, headers: json, body: validBody },
  },
  { name: 'path named like an Object property', status: 404, request: { path: '/__proto__', headers: auth } },
  {
    name: 'consume without a token',
    status: 401,
    headers: { 'www-authenticate': 'Bearer' },
    request: {
      method: 'POST',
      path: REFERENCE_PATHS.consume,
      headers: { 'Content-Type': 'application/json' },
      body: validBody,
    },
  },
  {
    name: 'consume with an unknown token',
    status: 401,
    request: {
      method: 'POST',
      path: REFERENCE_PATHS.consume,
      headers: { Authorization: 'Bearer nobody', 'Content-Type': 'application/json' },
      body: validBody,
    },
  },
  {
    name: 'balance with a Basic credential',
    status: 401,
    request: { path: REFERENCE_PATHS.balance, headers: { Authorization: `Basic ${user.token}` } },
  },
  {
    name: 'count with an empty bearer',
    status: 401,
    request: { path: `${REFERENCE_PATHS.freeTrialCount}?module=${MODULE}`, headers: { Authorization: 'Bearer ' } },
  },
];

function useBackend(transport: TransportName) {
  let backend: ContractBackend;
  beforeAll(async () => {
    backend = await openBackend(transport, { users: [user] });
  });
  afterAll(() => backend.close());

  async function expectRejectedWithoutChange(request: RawOptions, status: number): Promise<RawAnswer> {
    const before = backend.getUser(user.token);
    const answer = await rawRequest(backend, request);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expectErrorBody(JSON.parse(answer.text), status);
    expect(backend.getUser(user.token)).toEqual(before);
    expect(backend.charges()).toEqual([]);
    // The backend survived and still answers.
    expect((await getBalance(backend, user.token)).status).toBe(200);
    return answer;
  }
  return { backend: () => backend, expectRejectedWithoutChange };
}

describe.each(TRANSPORTS)('reference backend: bad input (%s)', (transport) => {
  const { backend, expectRejectedWithoutChange } = useBackend(transport);

  test.each(cases)('$name → $status with a JSON error body, state unchanged', async ({ request, status, headers }) => {
    const answer = await expectRejectedWithoutChange(request, status);
    for (const [name, value] of Object.entries(headers ?? {})) expect(answer.headers[name]).toBe(value);
  });

  test('a body over 16 KiB → 413, nothing read into the log', async () => {
    await expectRejectedWithoutChange(
      {
        method: 'POST',
        path: REFERENCE_PATHS.consume,
        headers: json,
        body: JSON.stringify({ module: MODULE, external_id: 'big', pad: 'x'.repeat(MAX_BODY_BYTES) }),
      },
      413,
    );
    const oversize = backend()
      .requests()
      .filter((r) => r.status === 413);
    expect(oversize).toHaveLength(1);
    expect(oversize[0]?.body).toBeUndefined();
  });

  test('a body of exactly 16 KiB is accepted', async () => {
    const base = JSON.stringify({ module: MODULE, external_id: 'exact-size' });
    const body = base.slice(0, -1) + ' '.repeat(MAX_BODY_BYTES - base.length) + '}';
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const answer = await rawRequest(backend(), { method: 'POST', path: REFERENCE_PATHS.consume, headers: json, body });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 0, data: { free_remaining: 0, is_credit: false } });
    expect(backend().charges()).toHaveLength(1);
  });
});

// A body that is still on its way exists only on a socket.
describe('reference backend: bad input on the socket (HTTP)', () => {
  const { backend, expectRejectedWithoutChange } = useBackend('HTTP');

  test('a declared Content-Length over 16 KiB → 413 before the body is sent', async () => {
    await expectRejectedWithoutChange(
      {
        method: 'POST',
        path: REFERENCE_PATHS.consume,
        headers: { ...json, 'Content-Length': MAX_BODY_BYTES + 1 },
        keepOpen: true,
      },
      413,
    );
  });

  test('a chunked body growing past 16 KiB → 413 without waiting for its end', async () => {
    await expectRejectedWithoutChange(
      {
        method: 'POST',
        path: REFERENCE_PATHS.consume,
        headers: { ...json, 'Transfer-Encoding': 'chunked' },
        body: `{"pad":"${'x'.repeat(MAX_BODY_BYTES)}"`,
        keepOpen: true,
      },
      413,
    );
    const oversize = backend()
      .requests()
      .filter((r) => r.status === 413);
    expect(oversize.length).toBeGreaterThan(0);
    expect(oversize.every((r) => r.body === undefined)).toBe(true);
  });
});
