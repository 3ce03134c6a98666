// The HTTP server's types, apart from the in-process ones (backend-types.ts): only this file
// needs Node's types. The build marks its node:http import optional (scripts/dual-types.mjs), so a
// project without @types/node still type-checks `unified-billing/testing`, with `fallback`'s
// arguments typed `any` there.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InProcessBackendOptions, InProcessReferenceBackend } from '../backend-types';

/**
 * Options of `startReferenceBackend`.
 *
 * @example
 * ```ts
 * const options: ReferenceBackendOptions = {
 *   users: [{ token: 'alice-token', freeRemaining: 3, freeTotal: 3, creditsPerUse: 10, creditsBalance: 25 }],
 *   port: 8787,
 * };
 * ```
 */
export interface ReferenceBackendOptions extends InProcessBackendOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /**
   * Called for a path that is not one of the three backend calls (and got no
   * fault), before the 404; return `true` when it has answered. This is how a
   * playground serves its own pages from the same origin.
   */
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/**
 * A running reference backend and its test hooks.
 *
 * @example
 * ```ts
 * let backend: ReferenceBackend;
 * beforeAll(async () => {
 *   backend = await startReferenceBackend({ users: [alice] });
 * });
 * afterAll(() => backend.close());
 * test('credits are deducted once the free quota is gone', async () => {
 *   backend.setUser('alice-token', { freeRemaining: 0 });
 *   // ... createClient({ baseUrl: backend.url, ... }) and consume ...
 *   expect(backend.charges().map((c) => c.kind)).toEqual(['credits']);
 * });
 * ```
 */
export interface ReferenceBackend extends InProcessReferenceBackend {
  /** The base URL, e.g. `http://127.0.0.1:53211`, without a trailing slash. */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /**
   * Stops listening, destroys every open socket (stalled answers included) and
   * clears every pending timer. Safe to call twice.
   */
  close(): Promise<void>;
}
