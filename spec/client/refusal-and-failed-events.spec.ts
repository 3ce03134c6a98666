import { billingEvents, type BillingEvent } from '../../lib';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';

afterEach(cleanup);

// Issue 18 item 11: after a 20101 the cache no longer offers credits the backend just refused.
describe('a refusal refreshes the balance', () => {
  it('one GET of the balance after a 20101, so check() and preview() tell the truth', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 10, creditsPerUse: 10 });
    await client.billing.getUsage();
    expect(client.billing.check().reason).toBe('credits');
    backend.quota.balance = 5; // spent elsewhere
    const sent = backend.requests.length;
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(backend.requests.slice(sent).map((request) => request.path)).toEqual([PATH.consume, PATH.balance]);
    expect(client.billing.getCachedUsage()).toMatchObject({ freeRemaining: 0, creditsBalance: 5 });
    expect(client.billing.check()).toEqual({ canProceed: false, reason: 'insufficient' });
    expect(client.billing.preview()).toMatchObject({ canProceed: false, balanceAfter: 5 });
  });
});

// Issue 18 item 9: every rejected consume is told as consume:failed, a refused argument included.
describe('consume:failed for every rejected consume', () => {
  it.each<[string, unknown]>([
    ['an empty externalId', { externalId: '' }],
    ['a 256-character externalId', { externalId: 'x'.repeat(256) }],
    ['a non-string externalId', { externalId: 42 }],
    ['a signal that is not one', { signal: { aborted: false } }],
  ])('%s: invalid_argument, with externalId null', async (_, options) => {
    const events: BillingEvent[] = [];
    const { client } = fixture({}, { events: billingEvents({ onEvent: (event) => events.push(event) }) });
    const consume = client.billing.consume as (options: unknown) => Promise<unknown>;
    await expect(consume(options)).rejects.toMatchObject({ code: 'invalid_argument' });
    // Refused before it began: its start and its end come together.
    const at = expect.any(Number);
    const wallTime = expect.any(Number);
    expect(events).toEqual([
      { type: 'consume:started', at, wallTime, call: 1, externalId: null },
      {
        type: 'consume:failed',
        at,
        wallTime,
        call: 1,
        externalId: null,
        attempts: 0,
        error: expect.objectContaining({ code: 'invalid_argument' }),
        unanswered: false,
      },
    ]);
    // The caller's own bad argument is no failure of billing.
    expect(client.billing.getStatus().error).toBeNull();
  });
});
