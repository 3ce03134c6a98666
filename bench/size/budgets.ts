/**
 * The size goals of issue 5, in gzipped bytes (1 KB = 1024 bytes), and the
 * ceilings `npm test` enforces today. Both goals are missed (docs/performance.md
 * says where the bytes go), so each gets a ceiling just above the size of an
 * app's import (createClient, consumeWith, BillingError, isBillingError) when
 * it was last set. It was own 6,555 B and total 14,823 B before issues 9 and
 * 10; they brought it to own 8,985 B and total 17,137 B: answers ranked per
 * attempt and per field group, a consume no abort can fail once charged, the
 * journal cleared with the outcome (about 0.5 KB), redaction of every
 * credential-like part, Headers instances, header checks and network errors
 * with a sanitized cause (about 1.6 KB), the error brand and Node's unref'd
 * timers. The bundle cannot grow unnoticed while the gap is open; lower the
 * ceilings as code shrinks. Provisional, after h-transport (own 9,457 B,
 * total 17,410 B): the 401 recovery and retry hooks of issue 12, and abort
 * signals shared per generation (about 0.47 KB together); the transport's own
 * rxjs is now `Observable` alone, which pays once the engine drops its
 * operators (the transport with the rxjs it pulls: 9,793 B before, 6,938 B).
 */
export const SIZE_GOALS = { own: 4 * 1024, total: 10 * 1024 } as const;

export const SIZE_CEILINGS = { own: 9_500, total: 17_450 } as const;
