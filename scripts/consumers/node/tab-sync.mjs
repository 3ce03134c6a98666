// A Node script (ESM) with tabSync(): it must end after its last line, with no dispose().
import { createClient, tabSync } from 'unified-billing';
import { startReferenceBackend } from 'unified-billing/testing';

const backend = await startReferenceBackend({
  users: [{ token: 't1', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 }],
});
const client = createClient({
  baseUrl: backend.url,
  appKey: 'script',
  headers: { Authorization: 'Bearer t1' },
  sync: tabSync(),
});
const result = await client.billing.consume();
if (result.isCredit || backend.charges().length !== 1) throw new Error(`unexpected: ${JSON.stringify(result)}`);
await backend.close();
console.log(`tab-sync.mjs: charged once on Node ${process.version}`);
