// Jest runs lib/ from source, so `__DEV__` (lib/shared/dev-flag.d.ts) is defined here with the
// meaning scripts/dev-flag.mjs gives it in a bundle, read at each use as there: a spec may set
// NODE_ENV=production before or after loading lib/ (spec/shared/production-build.spec.ts).
Object.defineProperty(globalThis, '__DEV__', {
  configurable: true,
  get: () => process.env.NODE_ENV !== 'production',
});
