/**
 * The size goals of issue 5, in gzipped bytes (1 KB = 1024 bytes), and the
 * ceilings `npm test` enforces today. A goal that is met is its own ceiling.
 * Both goals are missed (docs/performance.md says where the bytes go), so each
 * gets a ceiling above the size measured when it was set (own 5,898 B, total
 * 14,195 B), with room for the features in flight (cross-tab sync): the bundle
 * cannot grow unnoticed while the gap is open. Lower them as code shrinks.
 */
export const SIZE_GOALS = { own: 4 * 1024, total: 10 * 1024 } as const;

export const SIZE_CEILINGS = { own: 7 * 1024, total: 15 * 1024 } as const;
