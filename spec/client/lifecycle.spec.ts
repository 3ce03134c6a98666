import { createClient } from '../../lib/client/create-client';
import { BillingError } from '../../lib/shared/errors';
import { BASE_URL, cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

describe('createClient() options', () => {
  const base = { baseUrl: BASE_URL, appKey: 'poster' };
  it.each([
    ['a relative baseUrl', { baseUrl: '/api' }],
    ['a non-http baseUrl', { baseUrl: 'ftp://example.com' }],
    ['a javascript: baseUrl', { baseUrl: 'javascript:alert(1)' }],
    ['credentials in baseUrl', { baseUrl: 'https://user:pw@example.com' }],
    ['a query in baseUrl', { baseUrl: 'https://example.com/?a=1' }],
    ['a fragment in baseUrl', { baseUrl: 'https://example.com/#x' }],
    ['an empty appKey', { appKey: '' }],
    ['a non-string appKey', { appKey: 42 }],
    ['a fetch that is not a function', { fetch: 'fetch' }],
    ['headers with a non-string value', { headers: { a: 1 } }],
    ['a negative timeoutMs', { timeoutMs: -1 }],
    ['fractional retries', { retries: 1.5 }],
    ['a scheduler without now()', { scheduler: {} }],
  ])('throws invalid_argument for %s', (_, patch) => {
    const make = () => createClient({ ...base, ...(patch as object) } as never);
    expect(make).toThrow(BillingError);
    expect(make).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  it('does not echo a credential from the baseUrl', () => {
    try {
      createClient({ ...base, baseUrl: 'https://user:s3cr3t-pw@example.com' });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('s3cr3t');
    }
    expect.assertions(1);
  });

  it('keeps a path prefix of the baseUrl', async () => {
    const { client, backend } = fixture({}, { baseUrl: `${BASE_URL}/gateway/` });
    await client.credits.getBalance();
    expect(backend.requests[0]?.path).toBe(`/gateway${PATH.balance}`);
  });
});

describe('externalId validation', () => {
  it.each([[''], ['x'.repeat(256)], [42], [null]])('rejects %j with invalid_argument and sends nothing', async (id) => {
    const { client, backend } = fixture();
    await expect(client.billing.consume({ externalId: id as never })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(backend.requests).toHaveLength(0);
  });

  it('accepts 255 characters', async () => {
    const { client, backend } = fixture();
    await client.billing.consume({ externalId: 'x'.repeat(255) });
    expect(backend.charged).toEqual(['x'.repeat(255)]);
  });
});

describe('abort', () => {
  it('an already aborted signal rejects with aborted and sends nothing', async () => {
    const { client, backend } = fixture();
    const controller = new AbortController();
    controller.abort();
    await expect(client.billing.consume({ signal: controller.signal, externalId: 'a1' })).rejects.toMatchObject({
      code: 'aborted',
      externalId: 'a1',
    });
    await settle();
    expect(backend.requests).toHaveLength(0);
  });

  it('aborting a consume queued behind another sends nothing for it', async () => {
    const { client, backend } = fixture();
    backend.holding = true;
    const first = client.billing.consume({ externalId: 'first' });
    const controller = new AbortController();
    const second = client.billing.consume({ externalId: 'second', signal: controller.signal });
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'aborted' });
    backend.holding = false;
    backend.release();
    await first;
    await settle();
    expect(backend.requests.filter((r) => r.path === PATH.consume)).toHaveLength(1);
  });
});

describe('dispose()', () => {
  it('leaves no timer, completes the observables, and fails later calls with disposed', async () => {
    const { client, clock } = fixture();
    await client.billing.getUsage();
    await client.billing.consume();
    let completed = 0;
    client.billing.usage$.subscribe({ complete: () => completed++ });
    client.billing.freePeriodRemaining$.subscribe({ complete: () => completed++ });
    expect(clock.pending).toBeGreaterThan(0);
    client.billing.dispose();
    expect(clock.pending).toBe(0);
    expect(completed).toBe(2);
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'disposed' });
    await expect(client.billing.getUsage()).rejects.toMatchObject({ code: 'disposed' });
    await expect(client.billing.refreshCredits()).rejects.toMatchObject({ code: 'disposed' });
    await expect(client.credits.getBalance()).rejects.toMatchObject({ code: 'disposed' });
    expect(() => client.billing.check()).toThrow(expect.objectContaining({ code: 'disposed' }));
    expect(() => client.billing.getCachedUsage()).toThrow(expect.objectContaining({ code: 'disposed' }));
  });

  it('rejects calls in flight with disposed and aborts their requests', async () => {
    const { client, backend } = fixture();
    backend.holding = true;
    const usage = client.billing.getUsage();
    const consume = client.billing.consume();
    const outcomes = Promise.allSettled([usage, consume]);
    await settle();
    // All three requests are on the wire (the consume's POST too), none aborted yet.
    expect(backend.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET ${PATH.count}`,
      `GET ${PATH.balance}`,
      `POST ${PATH.consume}`,
    ]);
    expect(backend.requests.map((request) => request.signal?.aborted)).toEqual([false, false, false]);
    client.billing.dispose();
    const [usageOutcome, consumeOutcome] = await outcomes;
    expect(usageOutcome).toMatchObject({ status: 'rejected', reason: { code: 'disposed' } });
    expect(consumeOutcome).toMatchObject({ status: 'rejected', reason: { code: 'disposed' } });
    expect(backend.requests.map((request) => request.signal?.aborted)).toEqual([true, true, true]);
    backend.holding = false;
    backend.release();
    await settle();
    expect(backend.requests).toHaveLength(3);
    expect(backend.charged).toEqual([]);
    expect(() => client.billing.getCachedUsage()).toThrow(expect.objectContaining({ code: 'disposed' }));
  });
});
