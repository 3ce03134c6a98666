// lib/ writes development-only text as `__DEV__ ? long : short` (declared in dev-flag.d.ts).
// Whatever compiles lib/ expands `__DEV__` through scripts/dev-flag.mjs; Jest defines it in
// spec/setup/dev-flag.ts. docs/decisions.md ("The development layer") says why it is built so.

/**
 * Whether `process.env.NODE_ENV` can be read here: true in Node, in Jest and
 * in any bundle (where the bundler replaced the lookup with its string); false
 * only where nothing defines `process`. Not a public export.
 */
export const HAS_ENV: boolean = ((): boolean => {
  try {
    // In a bundle this line reads `"production" !== undefined`.
    return (process as { env: { NODE_ENV?: string } }).env.NODE_ENV !== undefined || true;
  } catch {
    return false;
  }
})();

declare const process: unknown;
