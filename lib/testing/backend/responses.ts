import type { BackendResponse } from './exchange';
import type { Fault } from '../types';
import type { Reply } from './wire';

const JSON_TYPE = 'application/json; charset=utf-8';

// A real server sends one; the client measures Retry-After dates against it.
function httpDate(): string {
  return new Date().toUTCString();
}

/**
 * A decided reply as a JSON answer, never cached.
 */
export function jsonAnswer(reply: Reply): BackendResponse {
  return {
    kind: 'answer',
    status: reply.status,
    headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', Date: httpDate(), ...reply.headers },
    body: JSON.stringify(reply.body),
  };
}

/**
 * The answer of a fault that sends bytes of its own: `malformed` (the raw
 * body as given) or `stall` (headers and the start of a body, then silence,
 * so a client timeout must cover the body, not just the headers).
 */
export function rawFaultAnswer(fault: Extract<Fault, { kind: 'malformed' | 'stall' }>): BackendResponse {
  if (fault.kind === 'stall') {
    return { kind: 'stall', status: 200, headers: { 'Content-Type': JSON_TYPE, Date: httpDate() }, body: '{"code":0,' };
  }
  return {
    kind: 'answer',
    status: fault.status ?? 200,
    headers: { 'Content-Type': fault.contentType ?? JSON_TYPE, Date: httpDate() },
    body: fault.body,
  };
}
