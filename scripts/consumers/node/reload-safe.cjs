/* global require */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS script, as a user writes one */
// A Node script (CommonJS) with reloadSafe(): it must end after its last line, with no dispose().
const { createClient, reloadSafe } = require('unified-billing');
const { createReferenceBackend } = require('unified-billing/testing');

const backend = createReferenceBackend({
  users: [{ token: 't1', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 }],
});
const saved = new Map();
const storage = {
  getItem: (key) => saved.get(key) ?? null,
  setItem: (key, value) => void saved.set(key, String(value)),
  removeItem: (key) => void saved.delete(key),
};
const client = createClient({
  baseUrl: 'http://billing.test',
  appKey: 'script',
  headers: { Authorization: 'Bearer t1' },
  fetch: backend.fetch,
  storage: reloadSafe(storage),
});
client.billing.consume().then((result) => {
  if (result.isCredit || backend.charges().length !== 1) throw new Error(`unexpected: ${JSON.stringify(result)}`);
  console.log(`reload-safe.cjs: charged once on Node ${process.version}`);
});
