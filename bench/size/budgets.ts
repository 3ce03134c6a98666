/**
 * The size goals of issue 5, in gzipped bytes (1 KB = 1024 bytes), and the
 * ceilings `npm test` enforces today. Both goals are missed (docs/performance.md
 * says where the bytes go), so each gets a ceiling just above the size of an
 * app's import (createClient, consumeWith, BillingError, isBillingError) when
 * it was last set: own 6,555 B and total 14,823 B, after tab sync and storage
 * became factories a bundler drops when unused. Issue 9 (answers in any order
 * before the first fetch, a charged consume that no abort or dispose can fail)
 * brought it to own 6,842 B and total 15,086 B. The bundle cannot grow
 * unnoticed while the gap is open; lower the ceilings as code shrinks.
 */
export const SIZE_GOALS = { own: 4 * 1024, total: 10 * 1024 } as const;

export const SIZE_CEILINGS = { own: 8_900, total: 17_100 } as const;
