import crossFetch from 'cross-fetch';
import nock from 'nock';
import type { Client, FetchLike } from '../../lib';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { drivenClient } from '../helpers/drive';
import type { SentRequest } from '../helpers/wire-log';
import { settle } from '../helpers/virtual-clock';

// Issue 12 item 4, black box: 401 recovery through `createClient`.

afterEach(cleanup);

const UNAUTHORIZED = { status: 401, body: '{"code":401,"message":"token expired","data":null}' };

/** A headers function that hands out token-1, token-2, … and counts its calls. */
function rotatingToken() {
  const calls = { count: 0 };
  const headers = () => ({ Authorization: `Bearer token-${++calls.count}` });
  return { calls, headers };
}

const tokenOf = (request: SentRequest | undefined) =>
  Object.entries(request?.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];

describe('onUnauthorized through the client', () => {
  it('a 401 on a consume: onUnauthorized once, one retry with fresh headers and the same external_id, one charge', async () => {
    const { calls, headers } = rotatingToken();
    const onUnauthorized = jest.fn(async () => undefined);
    const { client, backend } = fixture({}, { headers, onUnauthorized });
    await client.billing.getUsage();
    const before = calls.count;
    backend.script(PATH.consume, UNAUTHORIZED);
    const result = await client.billing.consume({ externalId: 'export-1' });

    expect(result).toMatchObject({ isBlacklisted: false });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    const posts = backend.requests.filter((request) => request.path === PATH.consume);
    expect(posts.map((post) => post.body)).toEqual([
      expect.objectContaining({ external_id: 'export-1' }),
      expect.objectContaining({ external_id: 'export-1' }),
    ]);
    // The headers function ran again for the retry, and the retry carried what it gave.
    expect(calls.count).toBe(before + 2);
    expect(posts.map(tokenOf)).toEqual([`Bearer token-${before + 1}`, `Bearer token-${before + 2}`]);
    expect(backend.charged).toEqual(['export-1']);
    expect(client.billing.getStatus().error).toBeNull();
  });

  it('the retry waits for onUnauthorized to settle before it is sent', async () => {
    let refreshed!: () => void;
    const onUnauthorized = jest.fn(() => new Promise<void>((resolve) => (refreshed = resolve)));
    const { client, backend } = fixture({}, { headers: rotatingToken().headers, onUnauthorized });
    backend.script(PATH.count, UNAUTHORIZED);
    const usage = client.billing.getUsage();
    usage.catch(() => undefined); // a failed expectation below must not leave it unhandled
    await settle();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(backend.count(PATH.count)).toBe(1);
    refreshed();
    await expect(usage).resolves.toMatchObject({ freeRemaining: 3 });
    expect(backend.count(PATH.count)).toBe(2);
  });

  it('a second 401 rejects with http 401, after one onUnauthorized and two sends', async () => {
    const onUnauthorized = jest.fn();
    const { client, backend } = fixture({}, { headers: rotatingToken().headers, onUnauthorized, retries: 2 });
    await client.billing.getUsage();
    backend.script(PATH.consume, UNAUTHORIZED, UNAUTHORIZED);
    await expect(client.billing.consume({ externalId: 'export-2' })).rejects.toMatchObject({
      code: 'http',
      status: 401,
      externalId: 'export-2',
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(backend.count(PATH.consume)).toBe(2);
    expect(backend.charged).toEqual([]);
  });

  it('three requests hitting 401 together share one onUnauthorized call', async () => {
    let refreshed!: () => void;
    const onUnauthorized = jest.fn(() => new Promise<void>((resolve) => (refreshed = resolve)));
    const { client, backend } = fixture({}, { headers: rotatingToken().headers, onUnauthorized });
    backend.script(PATH.count, UNAUTHORIZED);
    backend.script(PATH.balance, UNAUTHORIZED);
    backend.script(PATH.consume, UNAUTHORIZED);
    backend.holding = true;
    const usage = client.billing.getUsage();
    const consumed = client.billing.consume({ externalId: 'export-3' });
    [usage, consumed].forEach((call) => call.catch(() => undefined));
    await settle();
    expect(backend.requests).toHaveLength(3);
    backend.holding = false;
    backend.release();
    await settle();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    refreshed();
    // Its free count may or may not include the consume's use, which raced it: the rest is fixed.
    await expect(usage).resolves.toMatchObject({ isEnabled: true, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 });
    await expect(consumed).resolves.toMatchObject({ isBlacklisted: false });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect([PATH.count, PATH.balance, PATH.consume].map((path) => backend.count(path))).toEqual([2, 2, 2]);
    expect(backend.charged).toEqual(['export-3']);
  });

  it('a later 401, after the first wave recovered, calls onUnauthorized again', async () => {
    const onUnauthorized = jest.fn();
    const { client, backend } = fixture({}, { headers: rotatingToken().headers, onUnauthorized });
    backend.script(PATH.count, UNAUTHORIZED);
    await client.billing.getUsage();
    backend.script(PATH.balance, UNAUTHORIZED);
    await client.billing.refreshCredits();
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
    expect(backend.count(PATH.balance)).toBe(3);
  });

  it('an onUnauthorized that throws: the call rejects with the 401, not with what it threw', async () => {
    const onUnauthorized = jest.fn(async () => {
      throw new Error('refresh failed for Bearer token-secret');
    });
    const { client, backend } = fixture({}, { headers: rotatingToken().headers, onUnauthorized });
    await client.billing.getUsage();
    backend.script(PATH.consume, UNAUTHORIZED);
    const error: unknown = await client.billing.consume({ externalId: 'export-4' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'http', status: 401, externalId: 'export-4' });
    expect(JSON.stringify(error) + String((error as Error).message)).not.toContain('token-secret');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(backend.count(PATH.consume)).toBe(1);
  });

  it('without the option a 401 rejects at once: one request, not retried', async () => {
    const { client, backend } = fixture({}, { headers: rotatingToken().headers, retries: 2 });
    backend.script(PATH.count, UNAUTHORIZED);
    await expect(client.billing.getUsage()).rejects.toMatchObject({ code: 'http', status: 401 });
    expect(backend.count(PATH.count)).toBe(1);
  });
});

describe('onUnauthorized on the wire (cross-fetch under nock)', () => {
  const BASE = 'http://api.billing.test';
  const clients: Client[] = [];

  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    clients.splice(0).forEach((client) => client.billing.dispose());
    nock.cleanAll();
  });
  afterAll(() => nock.enableNetConnect());

  it('retries the POST once with the new token and the same body', async () => {
    let token = 'old';
    const { client, run } = drivenClient(crossFetch as FetchLike, {
      baseUrl: BASE,
      headers: () => ({ Authorization: `Bearer ${token}` }),
      onUnauthorized: () => {
        token = 'new';
      },
    });
    clients.push(client);
    const bodies: unknown[] = [];
    const scope = nock(BASE)
      .post(PATH.consume, (body: unknown) => (bodies.push(body), true))
      .matchHeader('authorization', 'Bearer old')
      .reply(401, { code: 401, message: 'expired', data: null })
      .post(PATH.consume, (body: unknown) => (bodies.push(body), true))
      .matchHeader('authorization', 'Bearer new')
      .reply(200, { code: 0, message: 'ok', data: { free_remaining: 1, is_credit: false } });

    const result = await run(client.billing.consume({ externalId: 'wire-1' }));
    expect(result).toMatchObject({ isCredit: false, isBlacklisted: false });
    expect(scope.isDone()).toBe(true);
    expect(bodies).toEqual([
      { module: 'generator_poster', external_id: 'wire-1' },
      { module: 'generator_poster', external_id: 'wire-1' },
    ]);
  });
});
