import type fc from 'fast-check';
import type { ReferenceState } from '../../lib/testing/reference-state';
import type { FetchLike } from '../../lib/types';
import { answerCall } from './wire-answer';

/** One exchange as the in-process backend handled it. */
export interface Handled {
  readonly client: string;
  readonly method: string;
  readonly path: string;
  readonly externalId: string | undefined;
  readonly code: number;
}

/**
 * A fetch over an in-process `ReferenceState` where fast-check's scheduler
 * decides when each request reaches the backend and, separately, when its
 * answer reaches the client: every interleaving of apply and delivery is
 * reachable.
 */
export function scheduledFetch(state: ReferenceState, s: fc.Scheduler, client: string, handled: Handled[]): FetchLike {
  return async (input, init = {}) => {
    const url = new URL(input);
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? init.body : undefined;
    const headers = (init.headers ?? {}) as Record<string, string>;
    const authorization = headers['Authorization'] ?? headers['authorization'];
    await s.schedule(Promise.resolve(), `${client} ${method} ${url.pathname} reaches the backend`);
    const answer = answerCall(state, { method, path: url.pathname, query: url.searchParams, authorization, body });
    const externalId = body === undefined ? undefined : (JSON.parse(body) as { external_id?: string }).external_id;
    handled.push({ client, method, path: url.pathname, externalId, code: answer.body.code });
    await s.schedule(Promise.resolve(), `${client} answer to ${method} ${url.pathname} arrives`);
    if (init.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  };
}
