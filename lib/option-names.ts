import { BillingError } from './errors';

// TypeScript catches a misspelled option; plain JavaScript and options built in
// a variable do not, and a silently ignored `timeout` or `onfocus` looks like a
// working client. So an unknown name is refused, with the nearest valid one.
// Kept small: it ships in every bundle (spec/perf/size.spec.ts).

/**
 * Throws `invalid_argument` with `message`, followed by what the option got
 * when a value is given: numbers, booleans, `null` and `undefined` as they
 * are, anything else by its kind only (a string or an object may hold a
 * credential).
 */
export function invalid(message: string, ...got: [unknown?]): never {
  const [value] = got;
  const kind = typeof value;
  const shown = value === null || /^[unb]/.test(kind) ? String(value) : kind === 'object' ? 'an object' : `a ${kind}`;
  throw new BillingError('invalid_argument', got.length ? `${message} (got ${shown})` : message);
}

// Edit distance on lower case (so `onfocus` and `baseURL` are 0), minus a half
// for the same first letter, so `retry` is `retries` rather than `fetch`.
function score(name: string, valid: string): number {
  const a = name.toLowerCase();
  const b = valid.toLowerCase();
  let row = [...Array(b.length + 1).keys()];
  for (let i = 0; i < a.length; i++) {
    const above = row;
    row = [i + 1];
    for (let j = 0; j < b.length; j++) {
      row[j + 1] = Math.min(above[j + 1]! + 1, row[j]! + 1, above[j]! + +(a[i] !== b[j]));
    }
  }
  return row[b.length]! - (a[0] === b[0] ? 0.5 : 0);
}

/**
 * Throws `invalid_argument` for own keys of `value` not in `valid`, each with
 * the nearest valid name when one is within half its length (a likely typo),
 * then the valid names: `unknown option "timeout" (did you mean "timeoutMs"?);
 * the options are timeoutMs`.
 */
export function checkOptionNames(value: object, valid: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((key) => !valid.includes(key));
  if (unknown.length === 0) return;
  const hints = unknown.map((key) => {
    // The lowest score wins; the sort is stable, so the first listed of equals.
    const near = valid
      .filter((name) => score(key, name) <= name.length / 2)
      .sort((x, y) => score(key, x) - score(key, y))[0];
    // A key is the caller's code, not data, but a pasted blob is cut short.
    return JSON.stringify(key.slice(0, 40)) + (near ? ` (did you mean "${near}"?)` : '');
  });
  invalid(`unknown ${what}${unknown[1] ? 's' : ''} ${hints.join(', ')}; the ${what}s are ${valid.join(', ')}`);
}
