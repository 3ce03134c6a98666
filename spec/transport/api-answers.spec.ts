import { BillingError } from '../../lib/shared/errors';
import { BACKEND_CODES } from '../../lib/shared/wire';
import type { FetchLike } from '../../lib/shared/types';
import { fakeApi, outcome } from './api-fixture';
import { settle } from '../helpers/virtual-clock';

// Issue 27, mutants of lib/transport/billing-api.ts that survived the transport's own specs: which
// envelope codes are answers (a consume's 20101 and 20102) and which are errors (any other code, and
// those two on a call that does not expect them). Each answer is one HTTP 200 with the given envelope.
function answering(code: number, message = 'refused'): FetchLike {
  return () => Promise.resolve(new Response(JSON.stringify({ code, message, data: null }), { status: 200 }));
}

async function settled<T>(pending: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const result = outcome(pending);
  await settle();
  expect(result.done).toBe(true);
  return result;
}

describe('envelope codes: answers and errors', () => {
  it.each([
    ['insufficient', BACKEND_CODES.insufficient],
    ['blacklisted', BACKEND_CODES.blacklisted],
  ] as const)('a consume answered %s resolves with that kind, sent once', async (kind, code) => {
    const fetch = jest.fn(answering(code));
    const { api } = fakeApi({ fetch });
    expect(await settled(api.consume('op-1'))).toEqual({ value: { kind }, done: true });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a consume answered an unknown code', 'consume', 40004],
    ['a balance answered 20101 (a consume-only answer)', 'balance', BACKEND_CODES.insufficient],
    ['a free count answered 20102 (a consume-only answer)', 'freeCount', BACKEND_CODES.blacklisted],
  ] as const)('%s rejects with a backend error carrying the code, not retried', async (_, call, code) => {
    const fetch = jest.fn(answering(code));
    const { api } = fakeApi({ fetch });
    const { error } = await settled<unknown>(call === 'consume' ? api.consume('op-2') : api[call]());
    expect(error).toBeInstanceOf(BillingError);
    expect(error).toMatchObject({ code: 'backend', backendCode: code });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
