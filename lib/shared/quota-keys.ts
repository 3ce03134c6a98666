import type { QuotaFields } from './types';

/** The quota fields, in one list: what the cache compares and the views show. */
export const QUOTA_KEYS = [
  'isEnabled',
  'freeRemaining',
  'freeTotal',
  'creditsPerUse',
  'creditsBalance',
] as const satisfies ReadonlyArray<keyof QuotaFields>;

/** The quota fields of `quota` and nothing else: a snapshot or a tab's message brings no keys of its own. */
export function pickQuota(quota: QuotaFields): QuotaFields {
  const picked: Record<string, unknown> = {};
  for (const key of QUOTA_KEYS) picked[key] = quota[key];
  return picked as unknown as QuotaFields;
}

// Here rather than in core: the React bindings compare their snapshots the same way, and a
// sub-entry reaches no deeper than shared/ (the direction rule of the layers).
/** A usage, or a quota (which has no `inFreePeriod`): what `sameUsage` compares. */
type Compared = QuotaFields & { readonly inFreePeriod?: boolean };

/**
 * Equal for `onChange` purposes: every field but the ticking `freePeriodRemaining`. Tabs compare
 * their quotas with it too, by their quota fields only.
 */
export function sameUsage(a: Compared | null, b: Compared | null): boolean {
  if (a === null || b === null) return a === b;
  return a.inFreePeriod === b.inFreePeriod && QUOTA_KEYS.every((key) => a[key] === b[key]);
}
