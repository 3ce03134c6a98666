import { join } from 'node:path';
import { ENTRY_BUDGETS, SIZE_CEILINGS } from '../../bench/size/budgets';
import { measureSize, type Bundle, type SizeFigures } from '../../bench/size/measure-size';

const names = (bundle: Bundle) => bundle.inputs.map((input) => input.path);
const platformFiles = (bundle: Bundle) => names(bundle).filter((path) => path.startsWith('lib/platform/'));

// Sizes are deterministic, so unlike timings they are assertions.
describe('bundle size of an app importing only createClient (minified + gzipped, ESM)', () => {
  let sizes: SizeFigures;
  beforeAll(async () => {
    sizes = await measureSize(join(__dirname, '../..'));
  });

  it('bundled for browsers: own code (rxjs external) stays within its ceiling', () => {
    expect(sizes.client.browser.own.gzipped).toBeLessThanOrEqual(SIZE_CEILINGS.own);
  });

  it('bundled for browsers: everything the bundle pulls in (rxjs too) stays within its ceiling', () => {
    expect(sizes.client.browser.total.gzipped).toBeLessThanOrEqual(SIZE_CEILINGS.total);
  });

  // The ceilings are the tight guard under the published budget (`npm run size`, over dist/): one
  // raised past it would let the bundle grow beyond what users are told.
  it('the ceiling on all of the bundle stays under the published gzip budget of the createClient app', () => {
    expect(SIZE_CEILINGS.total).toBeLessThanOrEqual(ENTRY_BUDGETS.client.gzip);
  });

  // Issue 24: the development layer (lib/shared/dev.ts) is dead code in a production build.
  it('a production build drops the development texts and redaction, which a development build keeps', () => {
    const development = sizes.clientDevelopment.own;
    const production = sizes.client.browser.own;
    const texts = [
      'did you mean',
      'check baseUrl',
      'connection refused',
      '[redacted]',
      'is not from billing.snapshot()',
    ];
    for (const text of texts) expect(development.code).toContain(text);
    for (const text of texts) expect(production.code).not.toContain(text);
    // Nothing is left to read at run time either: the bundler replaced every lookup.
    expect(production.code).not.toContain('process');
    // Nor the guard for runtimes without `process` (lib/shared/dev.ts): a build that replaces the lookup
    // expands each site to the lookup alone (scripts/dev-flag.cjs), so nothing keeps `(HAS_ENV, "short")`.
    expect(production.inputs.find((input) => input.path === 'lib/shared/dev.ts')?.bytes ?? 0).toBe(0);
    expect(production.gzipped).toBeLessThan(development.gzipped - 1024);
  });

  it('the own bundle holds no dependency code; everything the bundle pulls in is rxjs beside it', () => {
    expect(names(sizes.client.browser.own).every((path) => path.startsWith('lib/') || path === 'app.ts')).toBe(true);
    const packages = (bundle: Bundle) => names(bundle).filter((path) => !path.startsWith('lib/') && path !== 'app.ts');
    expect(packages(sizes.client.browser.total).sort()).toEqual(['rxjs', 'tslib']); // tslib: rxjs's esm5 helpers
    expect(packages(sizes.client.node.total)).toEqual(['rxjs']);
  });

  it('every platform bundles the same platform files, which read the runtime globals', () => {
    for (const bundle of [sizes.client.browser.total, sizes.client.node.total, sizes.barrel.browser.own]) {
      expect(platformFiles(bundle).sort()).toEqual(['lib/platform/default-fetch.ts', 'lib/platform/random-id.ts']);
    }
  });

  it('the opt-in features are tree-shaken from an app that does not call their factories', () => {
    // Every feature of the one protocol, refetch and events included since issue 24.
    const FEATURES = ['sync/', 'persist/', 'refetch/', 'events/'].map((folder) => `lib/features/${folder}`);
    const optIn = (bundle: Bundle) =>
      names(bundle).filter((path) => FEATURES.some((folder) => path.startsWith(folder)));
    expect(optIn(sizes.client.browser.own)).toEqual([]);
    expect(optIn(sizes.client.browser.total)).toEqual([]);
    expect(names(sizes.barrel.browser.own)).toEqual(
      expect.arrayContaining([
        'lib/features/sync/index.ts',
        'lib/features/persist/index.ts',
        'lib/features/refetch/index.ts',
        'lib/features/events/index.ts',
      ]),
    );
  });

  it('the rxjs app bundles rxjs alone, and the library on top of it when it imports createClient', () => {
    expect(names(sizes.rxjsApp.alone)).toContain('rxjs');
    expect(names(sizes.rxjsApp.alone).some((path) => path.startsWith('lib/'))).toBe(false);
    expect(names(sizes.rxjsApp.withClient)).toContain('lib/client/create-client.ts');
    expect(sizes.rxjsApp.withClient.gzipped).toBeGreaterThan(sizes.rxjsApp.alone.gzipped);
  });
});
