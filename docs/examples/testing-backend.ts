// docs/testing.md "Testing against a real backend", type-checked; import paths point at
// the sources and the top-level awaits sit in a function.
import { createClient } from 'unified-billing';
import { startReferenceBackend } from 'unified-billing/testing';

export async function example() {
  const backend = await startReferenceBackend({
    users: [{ token: 't1', freeRemaining: 1, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 }],
  });
  const client = createClient({ baseUrl: backend.url, appKey: 'poster', headers: { Authorization: 'Bearer t1' } });
  await client.billing.consume();
  console.log(backend.charges()); // [{ token: 't1', kind: 'free', ... }]
  backend.failNext('/ai/v5/service/free_trial', 1, { kind: 'status', status: 503 });
  client.billing.dispose();
  await backend.close();
}
