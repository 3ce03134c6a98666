/**
 * @jest-environment jsdom
 */
/* global require, test, expect */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS test file, as a user writes one */
const { createClient } = require('unified-billing');
const { createReferenceBackend, startReferenceBackend } = require('unified-billing/testing');

const alice = { token: 'alice', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 };

test('startReferenceBackend serves the client over HTTP', async () => {
  const backend = await startReferenceBackend({ users: [alice] });
  // jsdom has no fetch: the client is given the backend's own.
  const client = createClient({
    baseUrl: backend.url,
    appKey: 'jest-cjs-jsdom',
    headers: { Authorization: 'Bearer alice' },
    fetch: backend.fetch,
  });
  const result = await client.billing.consume();
  expect(result.isCredit).toBe(false);
  expect(backend.charges().map((charge) => charge.kind)).toEqual(['free']);
  client.billing.dispose();
  await backend.close();
});

test('createReferenceBackend().fetch serves the client in-process', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'jest-cjs-jsdom',
    headers: { Authorization: 'Bearer alice' },
    fetch: backend.fetch,
  });
  await expect(client.billing.getUsage()).resolves.toMatchObject({ freeRemaining: 1, creditsBalance: 10 });
  client.billing.dispose();
  await backend.close();
});
