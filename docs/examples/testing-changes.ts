// docs/testing.md "Testing against a real backend": the backend's pushed changes, type-checked.
import { createClient, refetchOn } from 'unified-billing';
import { createReferenceBackend } from 'unified-billing/testing';

export async function topUpPushed(): Promise<void> {
  const backend = createReferenceBackend({
    users: [{ token: 't1', freeRemaining: 0, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 }],
  });
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t1' },
    fetch: backend.fetch,
    refetch: refetchOn({ when: backend.changes('t1') }),
  });
  await client.billing.getUsage();
  backend.topUp('t1', 40); // the client fetches its usage again: 50 credits
  client.billing.dispose();
}
