import { BillingError } from '../../lib/shared/errors';
import { defaultRetryPolicy, isRetryable, parseRetryAfter, retryDelayMs } from '../../lib/transport/retry-policy';

describe('isRetryable()', () => {
  it.each<[BillingError, boolean]>([
    [new BillingError('network', 'x'), true],
    [new BillingError('timeout', 'x'), true],
    [new BillingError('http', 'x', { status: 429 }), true],
    [new BillingError('http', 'x', { status: 503 }), true],
    [new BillingError('http', 'x', { status: 400 }), false],
    [new BillingError('http', 'x', { status: 401 }), false],
    [new BillingError('backend', 'x', { backendCode: 1 }), false],
    [new BillingError('decode', 'x'), false],
  ])('%s → %s', (error, retryable) => expect(isRetryable(error)).toBe(retryable));
});

describe('parseRetryAfter()', () => {
  const date = 'Sun, 22 Nov 2026 10:00:00 GMT';
  it.each<[string | null, string | null, number | undefined]>([
    ['3', null, 3_000],
    ['0', null, 0],
    ['Sun, 22 Nov 2026 10:00:05 GMT', date, 5_000],
    ['Sun, 22 Nov 2026 09:59:00 GMT', date, 0],
    ['Sun, 22 Nov 2026 10:00:05 GMT', null, undefined],
    ['soon', date, undefined],
    ['-1', null, undefined],
    ['99999999', null, 30_000],
    [null, null, undefined],
  ])('%j with Date %j → %j', (value, at, ms) => expect(parseRetryAfter(value, at)).toBe(ms));
});

describe('retryDelayMs()', () => {
  it('is full jitter under an exponential ceiling', () => {
    const policy = { ...defaultRetryPolicy, retries: 3, random: () => 0.999 };
    const error = new BillingError('network', 'x');
    expect(retryDelayMs(error, 0, policy)).toBeLessThan(250);
    expect(retryDelayMs(error, 2, policy)).toBeGreaterThan(900);
    expect(retryDelayMs(error, 20, policy)).toBeLessThan(8_000);
    expect(retryDelayMs(error, 2, { ...policy, random: () => 0 })).toBe(0);
  });

  it('uses Retry-After when the server sent one', () => {
    const policy = { ...defaultRetryPolicy, retries: 3 };
    expect(retryDelayMs(new BillingError('http', 'x', { status: 429, retryAfterMs: 1234 }), 0, policy)).toBe(1234);
  });
});
