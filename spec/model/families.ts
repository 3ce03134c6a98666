/**
 * The lifecycle model's command families. Each is on unless `MODEL_<NAME>=0`
 * (`MODEL_HOLDS=0`, `MODEL_DISPOSE_REPLAYING=0`, ...). A family whose defect
 * has no fix on main yet is parked: off unless `MODEL_<NAME>=1`, so the
 * suite stays green without weakening any invariant. Unpark a family by
 * deleting its line once its fix has landed.
 */
export const FAMILIES = [
  'holds',
  'timeouts',
  'aborts',
  'dispose',
  'disposeReplaying',
  'abandonCopied',
  'reloads',
  'copies',
  'clockSteps',
  'storageFaults',
  'tabs',
  'tabHolds',
  'busyTabs',
  'lateChannel',
] as const;
export type Family = (typeof FAMILIES)[number];

/**
 * Parked families and the defect each waits for (found by this model; see docs/reliability.md).
 * None today: the six found on main after the first issue 9 fixes (retries ranked by their first
 * attempt, dispose while replaying, a duplicated tab paying for what its opener abandoned, and tabs
 * ranking shared state by when it arrived) are fixed, and their families run by default.
 */
export const PARKED: Partial<Record<Family, string>> = {};

const variable = (family: Family) => `MODEL_${family.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

export function familyOn(family: Family): boolean {
  const value = process.env[variable(family)];
  if (value === '0') return false;
  if (value === '1') return true;
  return PARKED[family] === undefined;
}

/** One line for the test's output: what runs and what is parked. */
export function familiesLine(): string {
  return FAMILIES.map((f) => `${variable(f)}=${familyOn(f) ? 1 : 0}`).join(' ');
}
