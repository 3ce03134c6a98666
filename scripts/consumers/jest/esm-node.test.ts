import { createClient, tabSync } from 'unified-billing';
import { createReferenceBackend, startReferenceBackend, type ReferenceUser } from 'unified-billing/testing';

const alice: ReferenceUser = { token: 'alice', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 };

test('startReferenceBackend serves the client over HTTP', async () => {
  const backend = await startReferenceBackend({ users: [alice] });
  const client = createClient({
    baseUrl: backend.url,
    appKey: 'jest-node',
    headers: { Authorization: 'Bearer alice' },
  });
  backend.setUser('alice', { freeRemaining: 0 });
  await client.billing.consume();
  expect(backend.charges().map((charge) => charge.kind)).toEqual(['credits']);
  expect(backend.getUser('alice').creditsBalance).toBe(8);
  client.billing.dispose();
  await backend.close();
});

test('createReferenceBackend().fetch serves the client in-process', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'jest-node',
    headers: { Authorization: 'Bearer alice' },
    fetch: backend.fetch,
  });
  await client.billing.consume();
  expect(backend.charges()).toHaveLength(1);
  expect(backend.requests().filter((request) => request.method === 'POST')).toHaveLength(1);
  client.billing.dispose();
  await backend.close();
});

test('a tab-synced client left undisposed does not hold Jest open', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  // No dispose on purpose: Jest must still end (an open BroadcastChannel used to hold it).
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'jest-node',
    headers: { Authorization: 'Bearer alice' },
    fetch: backend.fetch,
    sync: tabSync(),
  });
  await client.billing.consume();
  expect(backend.charges()).toHaveLength(1);
});
