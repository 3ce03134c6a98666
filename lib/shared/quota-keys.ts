import type { QuotaFields } from './types';

/** A count of uses (`free_remaining`, `free_total`): an integer >= 0, as the contract's wire table says. */
export const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** A flag (`is_enabled`, `is_credit`): a boolean. */
export const isFlag = (value: unknown): value is boolean => typeof value === 'boolean';

/** An amount of credits (`credits_per_use`, `balance`): a finite number >= 0, fractions included (0.5, 12.5). */
export const isAmount = (value: unknown): value is number => Number.isFinite(value) && (value as number) >= 0;

// The one check of a quota, field by field: the wire decoder, the `bootstrap` check and the tabs' messages
// all use it, so a quota one of them accepts is never refused by another.
const QUOTA_CHECKS: { readonly [K in keyof QuotaFields]: (value: unknown) => boolean } = {
  isEnabled: isFlag,
  freeRemaining: isCount,
  freeTotal: isCount,
  creditsPerUse: isAmount,
  creditsBalance: isAmount,
};

/** The quota fields, in one list (the order of their checks): what the cache compares and the views show. */
export const QUOTA_KEYS = Object.keys(QUOTA_CHECKS) as ReadonlyArray<keyof QuotaFields>;

/** The first quota field of `value` that fails its check (in `QUOTA_KEYS` order), `undefined` when it is a quota. */
export const invalidQuotaKey = (value: unknown): keyof QuotaFields | undefined =>
  // A primitive has none of the fields, so only null and undefined need the `?.`.
  QUOTA_KEYS.find((key) => !QUOTA_CHECKS[key]((value as Partial<Record<string, unknown>> | null | undefined)?.[key]));

/** The quota fields of `quota` and nothing else: a snapshot or a tab's message brings no keys of its own. */
export const pickQuota = (quota: QuotaFields): QuotaFields =>
  Object.fromEntries(QUOTA_KEYS.map((key) => [key, quota[key]])) as unknown as QuotaFields;

// A usage, or a quota alone (a tab's), or none yet.
type Compared = (QuotaFields & { readonly inFreePeriod?: boolean }) | null;

// Here rather than in core: the React bindings compare their snapshots the same way, and a
// sub-entry reaches no deeper than shared/ (the direction rule of the layers).
/**
 * Equal for `onChange` purposes: every field but the ticking `freePeriodRemaining`. Tabs compare
 * their quotas with it too, by their quota fields only.
 */
export function sameUsage(a: Compared, b: Compared): boolean {
  if (a === null || b === null) return a === b;
  return a.inFreePeriod === b.inFreePeriod && QUOTA_KEYS.every((key) => a[key] === b[key]);
}
