// Development-only text is written `__DEV__ ? long : short`; the build expands each `__DEV__`
// into a guard that reads HAS_ENV (the decisions, "Diagnostics in development only", say why).

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
