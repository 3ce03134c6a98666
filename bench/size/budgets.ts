/**
 * The size goals of issue 5, in gzipped bytes (1 KB = 1024 bytes), and the
 * ceilings `npm test` enforces today. A goal that is met is its own ceiling.
 * Both goals are missed (docs/performance.md says where the bytes go), so each
 * gets a ceiling just above the size measured when it was last set (own
 * 8,652 B and total 16,719 B, with opt-in storage and tab sync in the bundle):
 * the bundle cannot grow unnoticed while the gap is open. Lower them as code shrinks.
 */
export const SIZE_GOALS = { own: 4 * 1024, total: 10 * 1024 } as const;

export const SIZE_CEILINGS = { own: 9 * 1024, total: 17 * 1024 } as const;
