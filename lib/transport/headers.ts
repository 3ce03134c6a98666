import { BillingError } from '../errors';

/** Header names and values as the transport sends them. */
export type HeaderRecord = Readonly<Record<string, string>>;

// The rules of node-fetch (cross-fetch in Node), which are stricter than the
// WHATWG Headers class: whatever passes here, every fetch accepts as given.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

interface HeadersLike {
  forEach(callback: (value: unknown, name: unknown) => void): void;
  get(name: string): unknown;
}

// Duck-typed, so a Headers from another realm or a polyfill (node-fetch's) is one too.
function isHeadersLike(value: object): value is HeadersLike {
  const candidate = value as Partial<HeadersLike>;
  return typeof candidate.forEach === 'function' && typeof candidate.get === 'function';
}

/** A record of the given headers, or `undefined` for anything that is not a record of strings or a Headers. */
export function toHeaderRecord(value: unknown): HeaderRecord | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (isHeadersLike(value)) {
    const record: Record<string, string> = {};
    let ok = true;
    value.forEach((item, name) => {
      if (typeof item === 'string' && typeof name === 'string') record[name] = item;
      else ok = false;
    });
    return ok ? record : undefined;
  }
  const ok = Object.values(value).every((item: unknown) => typeof item === 'string');
  return ok ? (value as HeaderRecord) : undefined;
}

/** The headers of one attempt, checked; throws `invalid_argument`, which is never retried. */
export function checkedHeaders(value: unknown): HeaderRecord {
  const record = toHeaderRecord(value);
  if (record === undefined) throw invalid('headers must be a record of strings or a Headers, or a function giving one');
  // Names are quoted only when valid, values never: a value is usually a credential.
  for (const [name, item] of Object.entries(record)) {
    if (!TOKEN.test(name)) throw invalid('headers: a name is not an HTTP token');
    if (!VALUE.test(item))
      throw invalid(`headers: the value of "${name}" has a character fetch refuses (CR, LF, NUL...)`);
  }
  return record;
}

/** An `invalid_argument` error, which is never retried. */
export function invalid(message: string): BillingError {
  return new BillingError('invalid_argument', message);
}
