import { invalid } from '../shared/errors';
import { isRecord } from './decode';

/** Header names and values as the transport sends them. */
export type HeaderRecord = Readonly<Record<string, string>>;

// The rules of node-fetch (cross-fetch in Node), which are stricter than the
// WHATWG Headers class: whatever passes here, every fetch accepts as given.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

// Just "invalid headers" in a production build.
const NOT_A_RECORD = 'headers must be a record of strings, a Headers, or a function giving one';

// What is wrong with one entry, in development. Names are quoted only when valid, values never: a
// value is usually a credential.
function entryProblem(name: string, item: unknown): string {
  if (typeof item !== 'string') return NOT_A_RECORD;
  return TOKEN.test(name)
    ? `headers: "${name}" has a character fetch refuses (CR, LF, NUL...)`
    : 'headers: a name is not a valid HTTP name';
}

/**
 * The headers of one attempt, checked: a record of strings (itself, not a
 * copy) or a Headers, duck-typed so one from another realm or a polyfill
 * counts too. Throws `invalid_argument`, never retried.
 */
export function checkedHeaders(value: unknown): HeaderRecord {
  if (!isRecord(value)) invalid(__DEV__ ? NOT_A_RECORD : 'invalid headers');
  let record = value;
  const { forEach, get } = value as Partial<Headers>;
  if (typeof forEach === 'function' && typeof get === 'function') {
    const copy: Record<string, unknown> = (record = {});
    forEach.call(value, (item: unknown, name: string) => (copy[name] = item));
  }
  for (const [name, item] of Object.entries(record)) {
    if (typeof item !== 'string' || !TOKEN.test(name) || !VALUE.test(item))
      invalid(__DEV__ ? entryProblem(name, item) : 'invalid headers');
  }
  return record as HeaderRecord;
}
