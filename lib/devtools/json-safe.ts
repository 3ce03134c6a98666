// What may leave the client for the DevTools: fields by a whitelist, never a copy of
// whatever the engine handed over. Strings are where a header value or an echoed token
// could hide, so only a few enum-like fields keep theirs (an error's `code`, never its
// message); numbers, booleans and null pass, and objects are rebuilt the same way.
import type { DevtoolsState } from '../features/devtools-hook';

/** What the DevTools receive: plain JSON. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Keys whose string value is an identifier the library chose (an action type, an error code, a consume's origin).
const ENUM_KEYS = new Set(['type', 'code', 'reason', 'kind', 'origin']);
const ENUM_VALUE = /^[a-z][a-z0-9_/:.-]{0,47}$/i;
// A key the engine chose (camelCase), not one built from data.
const KEY = /^[a-z][a-zA-Z0-9]{0,39}$/;
const MAX_DEPTH = 3;

function value(key: string, input: unknown, depth: number): Json | undefined {
  if (input === null || typeof input === 'boolean') return input;
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  if (typeof input === 'string') return ENUM_KEYS.has(key) && ENUM_VALUE.test(input) ? input : undefined;
  if (typeof input === 'object' && depth < MAX_DEPTH && !Array.isArray(input)) return record(input, depth + 1);
  return undefined;
}

function record(input: object, depth: number): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [key, field] of Object.entries(input)) {
    const kept = KEY.test(key) ? value(key, field, depth) : undefined;
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** The action as the DevTools show it: its `type` and its whitelisted fields. */
export function safeAction(action: { readonly type: string }): { type: string } & { [key: string]: Json } {
  // `type` is an enum-like key: kept when it reads as one, else shown as 'unknown'.
  return { type: 'unknown', ...record(action, 0) };
}

/** The state as the DevTools show it: usage fields, the status (its error as a code), the free period's end. */
export function safeState(state: DevtoolsState): { [key: string]: Json } {
  const { error } = state.status;
  // An error's identity without its message (which quotes what the backend said).
  const shown = error && { code: error.code, status: error.status, backendCode: error.backendCode };
  // Numbers and flags only, each kept or dropped as `record` does.
  return record({ ...state, status: { ...state.status, error: shown } }, 0);
}
