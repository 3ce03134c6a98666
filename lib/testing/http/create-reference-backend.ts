import { createBackendCore } from '../backend/backend-core';
import type { InProcessBackendOptions, InProcessReferenceBackend } from '../backend-types';
import { inProcessFetch } from './in-process-fetch';

/**
 * The reference backend in-process: the same state, rules, hooks and faults
 * as `startReferenceBackend`, served through `fetch` instead of a socket. No
 * port, no open handle, no Node built-in: it runs in Node tests, Storybook,
 * React Native tests, Jest's jsdom environment and browser bundles alike (it
 * answers with the global `Response` where there is one, else with an object
 * that reads the same). Throws if a user is invalid.
 *
 * Faults have their network equivalents: `drop` rejects with a `TypeError`
 * like a reset connection, `stall` answers headers and a body that never
 * ends (until the request's signal aborts or `close()`), `delay` waits on a
 * real timer, also under Jest's and Vitest's fake timers.
 *
 * @example
 * ```ts
 * import { createClient } from 'unified-billing';
 * import { createReferenceBackend } from 'unified-billing/testing';
 *
 * const backend = createReferenceBackend({
 *   users: [{ token: 'alice-token', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 25 }],
 * });
 * const client = createClient({
 *   baseUrl: 'http://billing.test',
 *   appKey: 'demo',
 *   headers: { Authorization: 'Bearer alice-token' },
 *   fetch: backend.fetch,
 * });
 * await client.billing.consume();
 * expect(backend.charges()).toHaveLength(1);
 * ```
 */
export function createReferenceBackend(options: InProcessBackendOptions = {}): InProcessReferenceBackend {
  const core = createBackendCore(options);
  return {
    ...core.hooks,
    fetch: inProcessFetch(core),
    close: async () => core.close(),
  };
}
