import { BillingError } from '../../lib/index';

describe('JSON.stringify(error)', () => {
  it('gives the name, code, message and every fact given, never the cause', () => {
    const cause = new Error('socket closed by 10.0.0.7');
    const error = new BillingError('http', 'HTTP 503 on GET https://api.test/usage', {
      status: 503,
      retryAfterMs: 2000,
      cause,
    });
    expect(JSON.parse(JSON.stringify(error))).toStrictEqual({
      name: 'BillingError',
      code: 'http',
      message: 'HTTP 503 on GET https://api.test/usage',
      status: 503,
      retryAfterMs: 2000,
    });
  });

  it('a copy naming the externalId shows it too', () => {
    const error = new BillingError('timeout', 'POST https://api.test/consume timed out').withExternalId('op-1');
    expect(JSON.parse(JSON.stringify(error))).toStrictEqual({
      name: 'BillingError',
      code: 'timeout',
      message: 'POST https://api.test/consume timed out',
      externalId: 'op-1',
    });
  });
});
