// billing-backend.mjs: the reference backend, to try the recipe without your own
// (`node billing-backend.mjs`, beside `next dev`). In-memory, one demo user.
import { startReferenceBackend } from 'unified-billing/testing';

const backend = await startReferenceBackend({
  port: 8788,
  users: [{ token: 'dev-token', freeRemaining: 3, freeTotal: 3, creditsPerUse: 10, creditsBalance: 50 }],
});
console.log(`reference backend on ${backend.url} (Ctrl+C stops it)`);
