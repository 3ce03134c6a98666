/**
 * The size goals of issue 5, in gzipped bytes (1 KB = 1024 bytes), and the
 * ceilings `npm test` enforces today. Both goals are missed (docs/performance.md
 * says where the bytes go), so each gets a ceiling just above the size of an
 * app's import (createClient, consumeWith, BillingError, isBillingError) when
 * it was last set: own 8,219 B and total 16,456 B, after the caller-input
 * checks, credential redaction and actionable network errors of issues 9 and
 * 10 (about 1.6 KB over the 6,555 B and 14,823 B before). The bundle cannot
 * grow unnoticed while the gap is open; lower the ceilings as code shrinks.
 */
export const SIZE_GOALS = { own: 4 * 1024, total: 10 * 1024 } as const;

export const SIZE_CEILINGS = { own: 8_350, total: 16_600 } as const;
