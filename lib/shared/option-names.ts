import { invalid } from './errors';

// TypeScript catches a misspelled option; plain JavaScript and options built in
// a variable do not, and a silently ignored `timeout` or `onfocus` looks like a
// working client. So an unknown name is refused, with the nearest valid one.
// Development only (lib/shared/dev.ts): a production build checks option values
// with short messages, and neither names nor "did you mean".

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

/** What a given value must pass, and what the message says it must be. */
export type Rule = readonly [test: (value: never, name: string) => unknown, must: string];

/** An integer in [min, max]. */
export const integer = (min: number, max: number): Rule => [
  (value: number) => Number.isInteger(value) && value >= min && value <= max,
  __DEV__ ? `an integer from ${min} to ${max}` : '',
];

// In development, throws `invalid_argument` for own keys of `value` not in `valid`,
// each with the nearest valid name when one is within half its length (a likely
// typo), then the valid names.
function checkNames(value: object, valid: string[], what: string): void {
  const unknown = Object.keys(value).filter((key) => !valid.includes(key));
  if (!unknown[0]) return;
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

/**
 * Throws `invalid_argument`, in development for own keys of `value` not in
 * `rules` (see checkNames: `unknown option "timeout" (did you mean
 * "timeoutMs"?); the options are timeoutMs`, or `unknown refetchOn() option`
 * with the prefix `refetchOn() `), then for the first given (not undefined)
 * value its rule refuses: `refetchOn() intervalMs must be an integer from 1000
 * to 2147483647 (got 999)`, in production `invalid refetchOn() intervalMs`.
 * A `null` rule is checked elsewhere.
 */
export function checkFields(value: object, rules: Readonly<Record<string, Rule | null>>, prefix = ''): void {
  const valid = Object.keys(rules);
  // A ternary, not an `if`: the form a minifier folds away in production.
  void (__DEV__ ? checkNames(value, valid, `${prefix}option`) : 0);
  for (const name of valid) {
    const given = (value as Record<string, unknown>)[name];
    const rule = rules[name];
    if (given !== undefined && rule && !rule[0](given as never, name))
      invalid(__DEV__ ? `${prefix}${name} must be ${rule[1]}` : `invalid ${prefix}${name}`, given);
  }
}
