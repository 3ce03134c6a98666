// docs/testing.md "Testing against a real backend", the in-process backend and the
// page's client of "Calling the reference backend from a Vite dev server",
// type-checked; import paths point at the sources.
import { createClient } from 'unified-billing';
import { createReferenceBackend } from 'unified-billing/testing';

export async function inProcess() {
  const backend = createReferenceBackend({
    users: [{ token: 't1', freeRemaining: 1, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 }],
  });
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t1' },
    fetch: backend.fetch,
  });
  await client.billing.consume();
  console.log(backend.charges().length); // 1
}

export const viteClient = createClient({
  baseUrl: 'http://127.0.0.1:8787',
  appKey: 'poster',
  headers: { Authorization: 'Bearer dev-token' },
});
