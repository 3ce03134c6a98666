import type { BillingPreview, Client } from '../../lib';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';

// Issue 12 item 5, black box: `billing.preview()` through `createClient` in
// every state of the quota, always agreeing with `check()`, never requesting.

afterEach(cleanup);

/** The preview, after checking it agrees with check() and sent nothing. */
function previewOf(client: Client, requests: () => number): BillingPreview {
  const before = requests();
  const preview = client.billing.preview();
  const { canProceed, reason } = client.billing.check();
  expect({ canProceed: preview.canProceed, reason: preview.reason }).toEqual({ canProceed, reason });
  expect(requests()).toBe(before);
  return preview;
}

/** The playground's label: "This export costs 10 credits (40 → 30)". */
function exportLabel(client: Client): string {
  const { canProceed, reason, cost, freeAfter, balanceAfter } = client.billing.preview();
  const balance = client.billing.getCachedUsage()?.creditsBalance;
  if (cost === null) return 'Loading…';
  if (!canProceed) return `Export needs ${cost} credits (you have ${balance})`;
  if (reason === 'free_period') return 'Export (free for a few more seconds)';
  if (reason === 'free_count') return `Export (free, ${freeAfter} left after this one)`;
  return `This export costs ${cost} credits (${balance} → ${balanceAfter})`;
}

describe('preview() in every state', () => {
  it('before the first fetch: insufficient, and nothing known', () => {
    const { client, backend } = fixture();
    expect(previewOf(client, () => backend.requests.length)).toEqual({
      canProceed: false,
      reason: 'insufficient',
      cost: null,
      freeAfter: null,
      balanceAfter: null,
    });
    expect(exportLabel(client)).toBe('Loading…');
  });

  it('with free uses left: free_count, costs 0, one free use less after', async () => {
    const { client, backend } = fixture({ freeRemaining: 3, balance: 10, creditsPerUse: 2 });
    await client.billing.getUsage();
    expect(previewOf(client, () => backend.requests.length)).toEqual({
      canProceed: true,
      reason: 'free_count',
      cost: 0,
      freeAfter: 2,
      balanceAfter: 10,
    });
    expect(exportLabel(client)).toBe('Export (free, 2 left after this one)');
  });

  it('on credits: costs creditsPerUse, "This export costs 10 credits (40 → 30)"', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 40, creditsPerUse: 10 });
    await client.billing.getUsage();
    expect(previewOf(client, () => backend.requests.length)).toEqual({
      canProceed: true,
      reason: 'credits',
      cost: 10,
      freeAfter: 0,
      balanceAfter: 30,
    });
    expect(exportLabel(client)).toBe('This export costs 10 credits (40 → 30)');
    // The preview is what the charge then does to the cache.
    await client.billing.consume();
    expect(client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 30, freeRemaining: 0 });
  });

  it('on the exact balance: credits, down to 0', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 10, creditsPerUse: 10 });
    await client.billing.getUsage();
    expect(previewOf(client, () => backend.requests.length)).toMatchObject({ reason: 'credits', balanceAfter: 0 });
  });

  it('insufficient: cannot proceed, the price it would take, the balance unchanged', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 5, creditsPerUse: 10 });
    await client.billing.getUsage();
    expect(previewOf(client, () => backend.requests.length)).toEqual({
      canProceed: false,
      reason: 'insufficient',
      cost: 10,
      freeAfter: 0,
      balanceAfter: 5,
    });
    expect(exportLabel(client)).toBe('Export needs 10 credits (you have 5)');
  });

  it('in a free period: costs 0 and leaves the quota as it is, then follows the period’s end', async () => {
    const { client, backend, clock } = fixture({ freeRemaining: 0, balance: 40, creditsPerUse: 10 });
    await client.billing.getUsage();
    await client.billing.consume();
    const requests = () => backend.requests.length;
    expect(previewOf(client, requests)).toEqual({
      canProceed: true,
      reason: 'free_period',
      cost: 0,
      freeAfter: 0,
      balanceAfter: 30,
    });
    expect(exportLabel(client)).toBe('Export (free for a few more seconds)');
    clock.advanceBy(29_999);
    expect(previewOf(client, requests).reason).toBe('free_period');
    clock.advanceBy(1);
    expect(previewOf(client, requests)).toMatchObject({ reason: 'credits', cost: 10, balanceAfter: 20 });
  });

  it('in a free period started before any getUsage: free, costs 0', async () => {
    const { client, backend } = fixture();
    await client.billing.consume();
    expect(backend.count(PATH.count)).toBe(0);
    const preview = previewOf(client, () => backend.requests.length);
    expect(preview).toMatchObject({ canProceed: true, reason: 'free_period', cost: 0 });
    const cached = client.billing.getCachedUsage();
    expect(preview.balanceAfter).toBe(cached === null ? null : cached.creditsBalance);
    expect(preview.freeAfter).toBe(cached === null ? null : cached.freeRemaining);
  });

  it('follows the cache as it changes: a refresh after a top-up moves it from insufficient to credits', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 5, creditsPerUse: 10 });
    await client.billing.getUsage();
    expect(previewOf(client, () => backend.requests.length).reason).toBe('insufficient');
    backend.quota.balance = 40;
    await client.billing.refreshCredits();
    expect(previewOf(client, () => backend.requests.length)).toMatchObject({ reason: 'credits', balanceAfter: 30 });
  });

  it('is frozen, and throws disposed after dispose like the other calls', async () => {
    const { client } = fixture();
    await client.billing.getUsage();
    expect(Object.isFrozen(client.billing.preview())).toBe(true);
    client.billing.dispose();
    expect(() => client.billing.preview()).toThrow(expect.objectContaining({ code: 'disposed' }));
  });
});
