import crossFetch from 'cross-fetch';
import { createReferenceBackend, startReferenceBackend, type ReferenceBackendHooks } from '../../lib/testing';
import type { FetchLike } from '../../lib/types';

/** The two transports of the reference backend's one handler. */
export type BackendKind = 'in-process' | 'reference';

/** A reference backend and the fetch a client reaches it with. */
export interface BackendUnderTest extends ReferenceBackendHooks {
  readonly kind: BackendKind;
  readonly url: string;
  /** `backend.fetch` in-process; cross-fetch (Node's http, a real socket) for the server. */
  readonly clientFetch: FetchLike;
  close(): Promise<void>;
}

/** Any origin reaches the in-process backend: it routes by path. */
export const IN_PROCESS_URL = 'http://billing.test';

/**
 * Opens the reference backend in-process (`createReferenceBackend`) or as
 * its HTTP server (`startReferenceBackend`): the same rules, state and faults.
 */
export async function openBackend(kind: BackendKind): Promise<BackendUnderTest> {
  if (kind === 'in-process') {
    const backend = createReferenceBackend();
    return { ...backend, kind, url: IN_PROCESS_URL, clientFetch: backend.fetch };
  }
  const backend = await startReferenceBackend();
  return { ...backend, kind, clientFetch: crossFetch as FetchLike };
}
