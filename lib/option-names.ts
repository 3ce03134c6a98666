import { BillingError } from './errors';

// TypeScript catches a misspelled option; plain JavaScript and options built in
// a variable do not, and a silently ignored `timeout` or `onfocus` looks like a
// working client. So an unknown name is refused, with the nearest valid one.

// Optimal string alignment distance (an adjacent swap is one edit), on lower
// case so `onfocus` and `baseURL` are found at distance 0.
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const rows: number[][] = [];
  for (let i = 0; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const same = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + same);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[x.length]![y.length]!;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n]!.toLowerCase() === b[n]!.toLowerCase()) n++;
  return n;
}

/**
 * The valid name closest to `name`, or `undefined` when none is close enough
 * to be a likely typo. Ties go to the longer common prefix (`retry` is
 * `retries`, not `fetch`), then to the order of `valid`.
 *
 * @example
 * ```ts
 * nearestName('timeout', ['timeoutMs', 'retries']); // 'timeoutMs'
 * ```
 */
export function nearestName(name: string, valid: readonly string[]): string | undefined {
  let best: { name: string; distance: number; prefix: number } | undefined;
  for (const candidate of valid) {
    const d = distance(name, candidate);
    const prefix = commonPrefix(name, candidate);
    if (!best || d < best.distance || (d === best.distance && prefix > best.prefix)) {
      best = { name: candidate, distance: d, prefix };
    }
  }
  if (!best) return undefined;
  // Edits up to half the valid name's length, or the start or end of it (`url` for `baseUrl`).
  const lower = name.toLowerCase();
  const target = best.name.toLowerCase();
  const related = lower.length >= 3 && (target.startsWith(lower) || target.endsWith(lower));
  return best.distance <= Math.max(1, Math.floor(best.name.length / 2)) || related ? best.name : undefined;
}

// A key is the caller's code, not data, but keep a pasted blob short.
const quoted = (name: string): string => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

/**
 * Throws `invalid_argument` for own keys of `value` not in `valid`, naming each
 * with the nearest valid name, or listing the valid ones when none is close.
 *
 * @example
 * ```ts
 * checkOptionNames({ timeout: 5000 }, ['timeoutMs'], 'option'); // throws: unknown option "timeout": did you mean "timeoutMs"?
 * ```
 */
export function checkOptionNames(value: object, valid: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((key) => !valid.includes(key));
  if (unknown.length === 0) return;
  const hints = unknown.map((key) => {
    const near = nearestName(key, valid);
    return near === undefined ? quoted(key) : `${quoted(key)} (did you mean "${near}"?)`;
  });
  const plural = unknown.length > 1 ? 's' : '';
  throw new BillingError(
    'invalid_argument',
    `unknown ${what}${plural} ${hints.join(', ')}; the ${what}s are ${valid.join(', ')}`,
  );
}

/**
 * What a wrong option value was, for a message: numbers, booleans, `null` and
 * `undefined` as they are, anything else by its kind only (a string or an
 * object may hold a credential).
 *
 * @example
 * ```ts
 * `timeoutMs must be an integer (got ${shownValue('5000')})`; // got a string of 4 characters
 * ```
 */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (typeof value === 'string') return value === '' ? 'an empty string' : `a string of ${value.length} characters`;
  if (Array.isArray(value)) return 'an array';
  const kind = typeof value;
  return `${kind === 'object' ? 'an' : 'a'} ${kind}`;
}
