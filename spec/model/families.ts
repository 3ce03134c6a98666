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
  'tabs',
  'tabHolds',
  'busyTabs',
  'lateChannel',
] as const;
export type Family = (typeof FAMILIES)[number];

/** Parked families and the defect each waits for (found by this model; see docs/reliability.md). */
export const PARKED: Partial<Record<Family, string>> = {
  timeouts:
    'a retried attempt is ranked by its first attempt: its newer answer loses to one sent in between (stale cache)',
  disposeReplaying: 'dispose() completes recovered$ before the outcomes of replays in flight: a charged replay is lost',
  abandonCopied:
    "a duplicated tab's storage replays an entry whose opener finished it (aborted, disposed, even answered 20101) while no client on the copy was listening (the copy disposed): the caller heard a failure, the copy pays",
  tabHolds:
    "a tab's state message is ranked by when the tab learned it (asOf), not when it asked: an old answer held on the wire, arriving late, overrides another tab's newer one",
  busyTabs:
    "a tab's state message is ranked by when the tab learned it (asOf), not when it asked: a busy tab's old answer, arriving late, overrides another tab's newer one",
  lateChannel:
    'a state message with the same asOf as the answer a tab holds wins the tie: delivered late, an older state overrides a newer own answer',
};

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
