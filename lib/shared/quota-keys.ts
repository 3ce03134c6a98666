import type { QuotaFields, UsageInfo } from './types';

/** The quota fields, in one list: what the cache compares and the views show. */
export const QUOTA_KEYS = [
  'isEnabled',
  'freeRemaining',
  'freeTotal',
  'creditsPerUse',
  'creditsBalance',
] as const satisfies ReadonlyArray<keyof QuotaFields>;

// Here rather than in core: the React bindings compare their snapshots the same way, and a
// sub-entry reaches no deeper than shared/ (the direction rule of the layers).
/** Equal for `onChange` purposes: every field but the ticking `freePeriodRemaining`. */
export function sameUsage(a: UsageInfo | null, b: UsageInfo | null): boolean {
  if (a === null || b === null) return a === b;
  return a.inFreePeriod === b.inFreePeriod && QUOTA_KEYS.every((key) => a[key] === b[key]);
}
