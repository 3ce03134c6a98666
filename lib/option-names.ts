import { BillingError } from './errors';

// TypeScript catches a misspelled option; plain JavaScript and options built in
// a variable do not, and a silently ignored `timeout` or `onfocus` looks like a
// working client. So an unknown name is refused, with the nearest valid one.
// Kept small: it ships in every bundle (spec/perf/size.spec.ts).

/**
 * Throws `invalid_argument` with `message`, followed by what the option got
 * when a value is given.
 *
 * @example
 * ```ts
 * if (typeof value !== 'boolean') invalid('refetch.onFocus must be a boolean', value); // ... (got a string)
 * ```
 */
export function invalid(message: string, ...got: [unknown?]): never {
  throw new BillingError('invalid_argument', got.length ? `${message} (got ${shownValue(got[0])})` : message);
}

// Edit distance on lower case (so `onfocus` and `baseURL` are 0), minus a half
// for the same first letter, so `retry` is `retries` rather than `fetch`.
function score(name: string, valid: string): number {
  const a = name.toLowerCase();
  const b = valid.toLowerCase();
  let row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]! - (a[0] === b[0] ? 0.5 : 0);
}

/**
 * The valid name closest to `name`, or `undefined` when none is within half
 * the valid name's length (then it is no likely typo).
 *
 * @example
 * ```ts
 * nearestName('timeout', ['timeoutMs', 'retries']); // 'timeoutMs'
 * ```
 */
export function nearestName(name: string, valid: readonly string[]): string | undefined {
  let best: string | undefined;
  let least = Infinity;
  for (const candidate of valid) {
    const s = score(name, candidate);
    if (s < least && s <= candidate.length / 2) [best, least] = [candidate, s];
  }
  return best;
}

/**
 * Throws `invalid_argument` for own keys of `value` not in `valid`, each with
 * the nearest valid name where one is close, then the valid names.
 *
 * @example
 * ```ts
 * checkOptionNames({ timeout: 5000 }, ['timeoutMs'], 'option');
 * // unknown option "timeout" (did you mean "timeoutMs"?); the options are timeoutMs
 * ```
 */
export function checkOptionNames(value: object, valid: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((key) => !valid.includes(key));
  if (unknown.length === 0) return;
  const hints = unknown.map((key) => {
    const near = nearestName(key, valid);
    // A key is the caller's code, not data, but a pasted blob is cut short.
    return JSON.stringify(key.slice(0, 40)) + (near ? ` (did you mean "${near}"?)` : '');
  });
  invalid(`unknown ${what}${unknown[1] ? 's' : ''} ${hints.join(', ')}; the ${what}s are ${valid.join(', ')}`);
}

// Numbers, booleans, `null` and `undefined` as they are, anything else by its
// kind only: a string or an object may hold a credential.
function shownValue(value: unknown): string {
  const kind = typeof value;
  if (value === null || kind === 'undefined' || kind === 'number' || kind === 'boolean') return String(value);
  return kind === 'object' ? 'an object' : `a ${kind}`;
}
