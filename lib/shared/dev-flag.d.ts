/**
 * True outside production builds. Never a runtime global: each use is expanded to
 * `(HAS_ENV && process.env.NODE_ENV !== 'production')` by scripts/dev-flag.cjs, the one
 * expression every bundler folds, so a production bundle keeps only the short text.
 */
declare const __DEV__: boolean;
