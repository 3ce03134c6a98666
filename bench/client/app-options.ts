import { createReferenceBackend, type InProcessReferenceBackend } from '../../lib/testing';
import type { ClientOptions } from '../../lib/client/options';

/**
 * The options an app gives `createClient()` (baseUrl, appKey, a headers
 * record, a fetch), over an in-process reference backend whose one user
 * holds `token`: what the client rows of the bench create.
 */
export function appOptions(token: string): { backend: InProcessReferenceBackend; options: ClientOptions } {
  const backend = createReferenceBackend({
    users: [{ token, freeRemaining: 3, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 }],
  });
  const options = {
    baseUrl: 'http://billing.bench',
    appKey: 'bench',
    headers: { Authorization: `Bearer ${token}` },
    fetch: backend.fetch,
  };
  return { backend, options };
}
