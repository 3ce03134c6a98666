// billing-backend.mjs: the reference backend, to try the recipe without your own
// (`node billing-backend.mjs`, beside `next dev`). In-memory, one demo user.
import { startReferenceBackend } from 'unified-billing/testing';

const backend = await startReferenceBackend({
  port: 8788,
  // Credits need not be whole numbers: 0.5 per use, 12.5 left.
  users: [{ token: 'dev-token', freeRemaining: 3, freeTotal: 3, creditsPerUse: 0.5, creditsBalance: 12.5 }],
});
console.log(`reference backend on ${backend.url} (Ctrl+C stops it)`);
