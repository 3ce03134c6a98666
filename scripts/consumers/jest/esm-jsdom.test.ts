/**
 * @jest-environment jsdom
 */
// jsdom has no fetch, Response, TextEncoder or structuredClone: the test kit must not need them.
import { createClient } from 'unified-billing';
import { createReferenceBackend, startReferenceBackend, type ReferenceUser } from 'unified-billing/testing';

const alice: ReferenceUser = { token: 'alice', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 };

test('createReferenceBackend().fetch serves the client, one request per call', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'jest-jsdom',
    headers: { Authorization: 'Bearer alice' },
    fetch: backend.fetch,
  });
  const usage = await client.billing.getUsage();
  expect(usage).toMatchObject({ freeRemaining: 1, creditsBalance: 10 });
  // No retry: each GET went out once.
  expect(
    backend
      .requests()
      .map((request) => `${request.method} ${request.path}`)
      .sort(),
  ).toEqual(['GET /ai/v1/credit/getBalance', 'GET /ai/v5/service/free_trial/count']);
  await client.billing.consume();
  expect(backend.charges().map((charge) => charge.kind)).toEqual(['free']);
  client.billing.dispose();
  await backend.close();
});

test('the answers of backend.fetch read like a Response', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  const answer = await backend.fetch('http://billing.test/ai/v1/credit/getBalance', {
    headers: { Authorization: 'Bearer alice' },
  });
  expect(answer.status).toBe(200);
  expect(answer.ok).toBe(true);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await answer.json()).toMatchObject({ code: 0, data: { balance: 10 } });
  await backend.close();
});

test('startReferenceBackend runs here too, and its fetch serves the client', async () => {
  const backend = await startReferenceBackend({ users: [alice] });
  const client = createClient({
    baseUrl: backend.url,
    appKey: 'jest-jsdom',
    headers: { Authorization: 'Bearer alice' },
    fetch: backend.fetch,
  });
  await client.billing.consume();
  expect(backend.charges()).toHaveLength(1);
  client.billing.dispose();
  await backend.close();
});
