import type { RequestRecord } from '../types';

/**
 * A deep copy of a request record, without `structuredClone` (Jest's jsdom
 * environment has none). A record holds JSON data only: the parsed body, the
 * query (names like `__proto__` kept as data) and plain fields.
 */
export function copyRecord(record: RequestRecord): RequestRecord {
  return copyData(record) as RequestRecord;
}

function copyData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyData);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    // defineProperty, not assignment: `__proto__` must stay an own key.
    Object.defineProperty(copy, name, { value: copyData(inner), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
