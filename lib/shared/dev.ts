// The development layer (issue 24), the convention of React, Redux and TanStack
// Query: where `process.env.NODE_ENV !== 'production'` (Node and Jest with it
// unset included), errors carry the full request, cause, fix and "did you
// mean"; in a production build the same error with a short message.
//
// Every site is written out as
//
//   HAS_ENV && process.env.NODE_ENV !== 'production' ? long : short
//
// and that exact text is the point:
// - `process.env.NODE_ENV` is what every bundler replaces with a string (a
//   production webpack, Vite, Parcel or esbuild build with "production"), so
//   in a production bundle the condition is `HAS_ENV && false`, the ternary
//   folds to `short` and the long text and its helpers go as dead code. A flag
//   exported from here would not do: it is a variable to the minifier, not a
//   constant, and `if (prod) return short` left about 600 B of constants.
// - `HAS_ENV` is tested first, so where nothing defines `process` (a browser
//   loading the package with no bundler, Deno without its Node globals) the
//   lookup is never evaluated: the package loads and its errors are the short
//   ones. A bare `typeof process` guard would not do either: a bundler leaves
//   it alone, so a browser bundle would keep both branches and choose by
//   whether the page has a `process`, which it never has.
// - Read at call time, on failure paths only: a successful call never reads
//   the environment, and a test may set NODE_ENV before or after loading lib/.

/**
 * The part of `process` the development layer reads. Each file that reads it
 * declares `process` with this type (`declare const process: ProcessEnvHolder;`,
 * which emits nothing), so lib/ type-checks without Node's types, as a browser
 * app compiles it (spec/docs/readme-provider.spec.ts), and the bundlers still
 * see the global `process.env.NODE_ENV` they replace.
 */
export interface ProcessEnvHolder {
  readonly env: { readonly NODE_ENV?: string };
}

declare const process: ProcessEnvHolder;

/**
 * Whether `process.env.NODE_ENV` can be read here: true in Node, in Jest and
 * in any bundle (where the bundler replaced the lookup with its string); false
 * only where nothing defines `process`. Not a public export.
 */
export const HAS_ENV: boolean = ((): boolean => {
  try {
    // In a bundle this line reads `"production" !== undefined`.
    return process.env.NODE_ENV !== undefined || true;
  } catch {
    return false;
  }
})();
