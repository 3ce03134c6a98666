import type fc from 'fast-check';
import { createBackendCore } from '../../lib/testing/backend-core';
import { inProcessFetch } from '../../lib/testing/in-process-fetch';
import type { ReferenceState } from '../../lib/testing/reference-state';
import type { FetchLike } from '../../lib/types';

/** One exchange as the in-process backend handled it. */
export interface Handled {
  readonly client: string;
  readonly method: string;
  readonly path: string;
  readonly externalId: string | undefined;
  readonly code: number;
}

/**
 * The reference backend's in-process fetch over a shared `ReferenceState`,
 * where fast-check's scheduler decides when each request reaches the backend
 * and, separately, when its answer reaches the client: every interleaving of
 * apply and delivery is reachable.
 */
export function scheduledFetch(state: ReferenceState, s: fc.Scheduler, client: string, handled: Handled[]): FetchLike {
  const backend = inProcessFetch(createBackendCore({ state }));
  return async (input, init = {}) => {
    const url = new URL(input);
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? init.body : undefined;
    await s.schedule(Promise.resolve(), `${client} ${method} ${url.pathname} reaches the backend`);
    // Handled in full here (the body read too): the state changes before the answer travels back.
    const response = await backend(input, { ...init, signal: null });
    const text = await response.text();
    const externalId = body === undefined ? undefined : (JSON.parse(body) as { external_id?: string }).external_id;
    handled.push({ client, method, path: url.pathname, externalId, code: (JSON.parse(text) as { code: number }).code });
    await s.schedule(Promise.resolve(), `${client} answer to ${method} ${url.pathname} arrives`);
    if (init.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    return new Response(text, { status: response.status, headers: response.headers });
  };
}
