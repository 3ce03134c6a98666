/**
 * Reads the free periods other tabs hold from a `query()` answer: each period's
 * tab holds a lock named `<prefix><charged at>:<ends at>:<id>` (wall times).
 * Only the fallback for a period whose owner cannot answer (frozen): the wall
 * clock dates it, so a period is never trusted beyond its charge's own 30 s,
 * nothing is adopted when the clock reads before the charge (it stepped back),
 * and junk entries (a polyfill's `null`, a non-string name) are skipped.
 */
export function datedPeriods(
  prefix: string,
  wallNow: () => number,
  periodMs: number,
): (answer: unknown) => Array<{ readonly id: string; readonly remainingMs: number }> {
  return (answer) => {
    const held = (answer as { held?: unknown } | null | undefined)?.held;
    if (!Array.isArray(held)) return [];
    const wall = wallNow();
    const found: Array<{ id: string; remainingMs: number }> = [];
    for (const entry of held as unknown[]) {
      const name = (entry as { name?: unknown } | null)?.name;
      if (typeof name !== 'string' || !name.startsWith(prefix)) continue;
      const [c, e, id] = name.slice(prefix.length).split(':');
      const charged = Number(c);
      // NaN (a malformed name) fails every comparison.
      if (id === undefined || id === '' || !(wall >= charged)) continue;
      const remainingMs = Math.min(Number(e), charged + periodMs) - wall;
      if (remainingMs > 0) found.push({ id, remainingMs });
    }
    return found;
  };
}
