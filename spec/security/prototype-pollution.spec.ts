import { cleanup, fixture, PATH } from '../helpers/client-fixture';

afterEach(cleanup);

const COUNT_DATA = '"is_enabled":true,"free_remaining":2,"free_total":5,"credits_per_use":3';
const POLLUTERS = '"__proto__":{"polluted":"yes","code":0},"constructor":{"prototype":{"polluted":"yes"}}';
const USAGE_KEYS = [
  'creditsBalance',
  'creditsPerUse',
  'freePeriodRemaining',
  'freeRemaining',
  'freeTotal',
  'inFreePeriod',
  'isEnabled',
];

function assertNothingPolluted(): void {
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'code')).toBe(false);
}

describe('response bodies with __proto__ and constructor keys', () => {
  it('are stripped from a usable answer: only the named fields reach the usage', async () => {
    const { client, backend } = fixture();
    backend.script(PATH.count, { body: `{"code":0,"message":"ok",${POLLUTERS},"data":{${COUNT_DATA},${POLLUTERS}}}` });
    backend.script(PATH.balance, { body: `{"code":0,"message":"ok","data":{"balance":9,${POLLUTERS}}}` });
    const usage = await client.billing.getUsage();
    expect(Object.keys(usage).sort()).toEqual(USAGE_KEYS);
    expect(Object.getPrototypeOf(usage)).toBe(Object.prototype);
    expect(usage).toMatchObject({ freeRemaining: 2, creditsBalance: 9 });
    assertNothingPolluted();
  });

  it.each([
    [
      'an envelope whose fields sit only in __proto__',
      '{"__proto__":{"code":0,"message":"ok","data":{"free_remaining":1,"is_credit":false}}}',
    ],
    [
      'data whose fields sit only in __proto__',
      '{"code":0,"message":"ok","data":{"__proto__":{"free_remaining":1,"is_credit":false}}}',
    ],
    [
      'data whose fields sit only in constructor.prototype',
      '{"code":0,"message":"ok","data":{"constructor":{"prototype":{"free_remaining":1,"is_credit":false}}}}',
    ],
  ])('a consume answered with %s is rejected as decode, charging nothing locally', async (_, body) => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    const before = client.billing.getCachedUsage();
    backend.script(PATH.consume, { body });
    await expect(client.billing.consume({ externalId: 'proto-1' })).rejects.toMatchObject({
      code: 'decode',
      externalId: 'proto-1',
    });
    expect(client.billing.getCachedUsage()).toEqual(before);
    expect(client.billing.check().reason).toBe('free_count');
    assertNothingPolluted();
  });

  it('a balance hidden in __proto__ is rejected, and the cache keeps its balance', async () => {
    const { client, backend } = fixture({ balance: 10 });
    await client.billing.getUsage();
    backend.script(PATH.balance, { body: '{"code":0,"message":"ok","data":{"__proto__":{"balance":999}}}' });
    await expect(client.billing.refreshCredits()).rejects.toMatchObject({ code: 'decode' });
    expect(client.billing.getCachedUsage()?.creditsBalance).toBe(10);
    assertNothingPolluted();
  });
});
