import type { ReferenceState } from '../../lib/testing/reference-state';
import { REFERENCE_PATHS, type Envelope } from '../../lib/testing/wire';

/** One call as an in-process backend sees it. */
export interface WireCall {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorization: string | undefined;
  readonly body: string | undefined;
}

/** The decided answer: an HTTP status and the JSON envelope. */
export interface WireAnswer {
  readonly status: number;
  readonly body: Envelope;
}

const error = (status: number, message: string): WireAnswer => ({
  status,
  body: { code: status, message, data: null },
});
const ok = (data: Record<string, unknown>): WireAnswer => ({ status: 200, body: { code: 0, message: 'ok', data } });

function bearer(header: string | undefined): string | undefined {
  return /^bearer +(\S+) *$/i.exec(header ?? '')?.[1];
}

function parseConsume(body: string | undefined): { module: string; externalId: string } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { module, external_id: externalId } = parsed as Record<string, unknown>;
  if (typeof module !== 'string' || !module.startsWith('generator_') || typeof externalId !== 'string') return null;
  if (externalId.length === 0 || externalId.length > 255) return null;
  return { module, externalId };
}

/**
 * The reference backend's answer to one call, over the same `ReferenceState`,
 * for backends that are not an HTTP server (nock, an in-process fetch).
 */
export function answerCall(state: ReferenceState, call: WireCall): WireAnswer {
  const token = bearer(call.authorization);
  const known = token !== undefined && state.has(token);
  if (call.method === 'GET' && call.path === REFERENCE_PATHS.balance) {
    return known ? ok(state.balance(token)) : error(401, 'unauthenticated');
  }
  if (call.method === 'GET' && call.path === REFERENCE_PATHS.freeTrialCount) {
    if (!known) return error(401, 'unauthenticated');
    const modules = call.query.getAll('module');
    const module = modules[0];
    if (modules.length !== 1 || module === undefined || !module.startsWith('generator_'))
      return error(400, 'bad module');
    return ok(state.freeTrialCount(token, module));
  }
  if (call.method === 'POST' && call.path === REFERENCE_PATHS.consume) {
    if (!known) return error(401, 'unauthenticated');
    const parsed = parseConsume(call.body);
    if (parsed === null) return error(400, 'bad body');
    return { status: 200, body: state.consume(token, parsed.module, parsed.externalId) };
  }
  return error(404, 'not found');
}
