import { Agent } from 'node:http';
import { createServer } from 'node:net';
import crossFetch from 'cross-fetch';
import { inspect } from 'node:util';
import nock from 'nock';
import { createClient, BillingError, type Client, type ClientOptions, type FetchLike } from '../../lib';
import { startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import { byMode } from '../helpers/mode';

const TOKEN = 'tok-net-9c41d7e2b5';
const clients: Client[] = [];

function make(options: Partial<ClientOptions> & Pick<ClientOptions, 'baseUrl'>): Client {
  const client = createClient({
    appKey: 'poster',
    headers: { Authorization: `Bearer ${TOKEN}` },
    retries: 0,
    ...options,
  });
  clients.push(client);
  return client;
}

async function failure(promise: Promise<unknown>): Promise<BillingError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BillingError)) throw new Error(`expected a BillingError, got ${String(error)}`);
  return error;
}

// A port that was free a moment ago and has nothing listening now.
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function everything(error: BillingError): string {
  return [String(error), error.stack, JSON.stringify(error), inspect(error, { depth: 8, showHidden: true })].join('\n');
}

// Loopback (the closed port, the reference backend) and the host nobody resolves; any other host must be a nock interceptor.
beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|billing\.nowhere\.test)(:\d+)?$/);
});
afterAll(() => nock.enableNetConnect());
afterEach(() => {
  clients.splice(0).forEach((client) => client.billing.dispose());
  nock.abortPendingRequests();
  nock.cleanAll();
});

describe('network failures name their cause', () => {
  it('a closed port through the default (global) fetch: connection refused (ECONNREFUSED), with a sanitized cause', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const client = make({ baseUrl });
    const error = await failure(client.credits.getBalance());
    expect(error.code).toBe('network');
    expect(error.message).toBe(
      byMode(
        `GET ${baseUrl}/ai/v1/credit/getBalance failed: connection refused (ECONNREFUSED)`,
        `GET ${baseUrl}/ai/v1/credit/getBalance failed`,
      ),
    );
    // Development only: the sanitized cause is made by the redaction.
    expect(error.cause instanceof Error).toBe(byMode(true, false));
    expect(error.cause).toEqual(
      // Node's fetch rejects a TypeError whose cause carries the system code.
      byMode(expect.objectContaining({ name: 'TypeError', code: 'ECONNREFUSED' }), undefined),
    );
    // Built by the library, not the fetch error itself, whose fields may quote the request.
    expect(Object.keys(Object(error.cause)).sort()).toEqual(byMode(['code'], []));
    expect(everything(error)).not.toContain(TOKEN);
  });

  it('a DNS failure through the default cross-fetch: host not found (ENOTFOUND)', async () => {
    // The real node-fetch and http stack, with a resolver that finds nothing (no network needed).
    const lookup = (host: string, _options: unknown, callback: (error: Error) => void) =>
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    const agent = new Agent({ lookup: lookup as never });
    const fetch: FetchLike = (url, init) => crossFetch(url, { ...init, agent } as RequestInit);
    const client = make({ baseUrl: 'http://billing.nowhere.test', fetch });
    const error = await failure(client.credits.getBalance());
    agent.destroy();
    expect(error).toMatchObject({ code: 'network' });
    expect(error.message).toBe(
      byMode(
        'GET http://billing.nowhere.test/ai/v1/credit/getBalance failed: host not found (ENOTFOUND)',
        'GET http://billing.nowhere.test/ai/v1/credit/getBalance failed',
      ),
    );
    expect(error.cause).toEqual(byMode(expect.objectContaining({ name: 'FetchError', code: 'ENOTFOUND' }), undefined));
  });

  it('a code on the error\'s own cause (undici: TypeError "fetch failed") is found', async () => {
    const fetch: FetchLike = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNRESET' }) });
    };
    const error = await failure(make({ baseUrl: 'http://billing.test', fetch }).credits.getBalance());
    expect(error).toMatchObject({ code: 'network' });
    expect(error.message).toBe(
      byMode(
        'GET http://billing.test/ai/v1/credit/getBalance failed: connection reset (ECONNRESET)',
        'GET http://billing.test/ai/v1/credit/getBalance failed',
      ),
    );
    expect(error.cause).toEqual(
      byMode(expect.objectContaining({ name: 'TypeError', code: 'ECONNRESET', message: 'fetch failed' }), undefined),
    );
  });

  it('a browser TypeError with no code says a network error or a CORS block is likely', async () => {
    const fetch: FetchLike = async () => {
      throw new TypeError('Failed to fetch');
    };
    const error = await failure(make({ baseUrl: 'http://billing.test', fetch }).billing.consume({ externalId: 'c-1' }));
    expect(error).toMatchObject({ code: 'network', externalId: 'c-1' });
    expect(error.message).toMatch(
      byMode(
        /^POST http:\/\/billing\.test\/ai\/v5\/service\/free_trial failed: .*network error or a CORS block/,
        /^POST http:\/\/billing\.test\/ai\/v5\/service\/free_trial failed$/,
      ),
    );
    expect(error.cause).toEqual(
      byMode(expect.objectContaining({ name: 'TypeError', message: 'Failed to fetch' }), undefined),
    );
  });

  it("the cause's message is redacted: a fetch error quoting the request never carries the token", async () => {
    const fetch: FetchLike = async () => {
      throw Object.assign(new TypeError(`Bearer ${TOKEN} is not a legal HTTP header value`), { code: 'ERR_X' });
    };
    const error = await failure(make({ baseUrl: 'http://billing.test', fetch }).credits.getBalance());
    expect(error.cause).toEqual(
      byMode(
        expect.objectContaining({ code: 'ERR_X', message: '[redacted] is not a legal HTTP header value' }),
        undefined,
      ),
    );
    expect(everything(error)).not.toContain(TOKEN);
  });
});

describe('401 and 403 say what the backend said, and what to check', () => {
  let backend: ReferenceBackend;
  beforeAll(async () => {
    backend = await startReferenceBackend({
      users: [{ token: 'right-token', freeRemaining: 1, freeTotal: 5, creditsPerUse: 1, creditsBalance: 1 }],
    });
  });
  afterAll(() => backend.close());

  it('a 401 of the reference backend carries its message and points at the headers option', async () => {
    const client = make({ baseUrl: backend.url });
    const error = await failure(client.billing.getUsage());
    expect(error).toMatchObject({ code: 'http', status: 401 });
    expect(error.message).toMatch(
      byMode(
        /^HTTP 401 on GET http:\/\/127\.0\.0\.1:\d+\/ai\/.*: unauthenticated\b.*; check the headers option/,
        /^HTTP 401 on GET http:\/\/127\.0\.0\.1:\d+\/ai\/[\w/]+$/,
      ),
    );
    expect(everything(error)).not.toContain(TOKEN);
  });

  it('a 403 carries the redacted, truncated message', async () => {
    const long = `token ${TOKEN} may not use module generator_poster ${'x'.repeat(1000)}`;
    nock('http://billing.nock.test')
      .get('/ai/v1/credit/getBalance')
      .reply(403, { code: 403, message: long, data: null });
    const error = await failure(make({ baseUrl: 'http://billing.nock.test' }).credits.getBalance());
    expect(error).toMatchObject({ code: 'http', status: 403 });
    expect(error.message).toMatch(
      byMode(
        /: token \[redacted\] may not use module generator_poster x+…; check the headers option \(credentials\)$/,
        /^HTTP 403 on GET http:\/\/billing\.nock\.test\/ai\/v1\/credit\/getBalance$/,
      ),
    );
    expect(error.message.length).toBeLessThan(500);
    expect(everything(error)).not.toContain(TOKEN);
  });
});
