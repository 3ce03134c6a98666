import { isBillingError } from '../../lib';
import { BillingError } from '../../lib/shared/errors';
import { decodeEnvelope } from '../../lib/transport/decode';
import { isRetryable, parseRetryAfter } from '../../lib/transport/retry-policy';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';

// Issue 27, mutants of lib/transport that survived the first run: answers at the edges of what a
// backend or proxy may send. Codes, fields and what is (not) shown are asserted; the wording of the
// long messages is left to spec/transport/error-messages.spec.ts.

afterEach(cleanup);

describe('decodeEnvelope() at the edges', () => {
  it.each([
    ['a number as data', '{"code":0,"message":"","data":5}', 'data'],
    ['a string as data', '{"code":20102,"message":"","data":"no"}', 'data'],
    ['a number as the body', '5', 'not an object'],
    ['a body of blanks only', ' \r\n\t ', 'empty body'],
  ])('rejects %s with decode', (_, text, what) => {
    expect(() => decodeEnvelope(text)).toThrow(
      expect.objectContaining({ code: 'decode', message: expect.stringContaining(what) }),
    );
  });
});

describe('a failed status whose JSON body has no usable message', () => {
  // A status outside 2xx, answered with each body: what the caller gets from getBalance().
  async function failureWith(body: string): Promise<unknown> {
    const { client, backend } = fixture({}, { retries: 0 });
    backend.script(PATH.balance, { status: 500, body, headers: { 'content-type': 'application/json' } });
    return client.credits.getBalance().catch((caught: unknown) => caught);
  }

  it.each([
    ['a number', '{"code":1,"message":4242}'],
    ['an object', '{"code":1,"message":{"text":"4242"}}'],
    ['null', '{"code":1,"message":null}'],
    ['absent', '{"code":1}'],
  ])('a message that is %s reads as an empty one: an http error that shows nothing of it', async (_, body) => {
    const error = await failureWith(body);
    const empty = await failureWith('{"code":1,"message":""}');
    expect(isBillingError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'http', status: 500 });
    expect((error as Error).message).toBe((empty as Error).message);
    expect((error as Error).message).not.toContain('4242');
  });
});

describe('retries at the edges', () => {
  it.each([
    [500, true],
    [599, true],
    [499, false],
  ])('an HTTP %i is retried: %s', (status, retried) => {
    expect(isRetryable(new BillingError('http', 'x', { status }))).toBe(retried);
  });

  it.each<[string, number | undefined]>([
    [' 7 ', 7_000],
    ['\t2\r\n', 2_000],
    ['1.5', undefined],
    ['5s', undefined],
  ])('Retry-After %j, with no Date header, reads as %s ms', (value, ms) => {
    expect(parseRetryAfter(value, null)).toBe(ms);
  });
});

describe('a headers function that gives no record of strings', () => {
  it.each<[string, unknown]>([
    ['a string', 'Bearer t'],
    ['null', null],
    ['an array', [['Authorization', 'Bearer t']]],
    ['a number value', { Authorization: 'Bearer t', 'X-Retry': 3 }],
  ])('%s: the call fails with invalid_argument and sends nothing', async (_, given) => {
    const { client, backend } = fixture({}, { retries: 0, headers: () => given as Record<string, string> });
    const error = await client.credits.getBalance().catch((caught: unknown) => caught);
    expect(isBillingError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_argument' });
    expect(backend.requests).toEqual([]);
  });
});
