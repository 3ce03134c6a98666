import { join } from 'node:path';
import { SIZE_CEILINGS } from '../../bench/size/budgets';
import { measureSize, type SizeFigures } from '../../bench/size/measure-size';

// Sizes are deterministic, so unlike timings they are assertions.
describe('bundle size (minified + gzipped, browser ESM)', () => {
  let sizes: SizeFigures;
  beforeAll(async () => {
    sizes = await measureSize(join(__dirname, '../..'));
  });

  it('own code (rxjs, uuid and cross-fetch external) stays within its ceiling', () => {
    expect(sizes.own.gzipped).toBeLessThanOrEqual(SIZE_CEILINGS.own);
  });

  it('own code with the rxjs parts it pulls in stays within its ceiling', () => {
    expect(sizes.total.gzipped).toBeLessThanOrEqual(SIZE_CEILINGS.total);
  });

  it('the own bundle holds no dependency code, the total holds rxjs but not uuid or cross-fetch', () => {
    const names = (bundle: SizeFigures['own']) => bundle.inputs.map((input) => input.path);
    expect(names(sizes.own).every((path) => path.startsWith('lib/') || path === 'app.ts')).toBe(true);
    expect(names(sizes.total)).toContain('rxjs');
    expect(names(sizes.total)).not.toContain('cross-fetch');
    expect(names(sizes.totalWithDeps)).toEqual(expect.arrayContaining(['rxjs', 'uuid', 'cross-fetch']));
  });

  it('the opt-in features are tree-shaken from an app that does not call their factories', () => {
    const names = (bundle: SizeFigures['own']) => bundle.inputs.map((input) => input.path);
    expect(names(sizes.own).some((path) => path.startsWith('lib/sync/') || path.startsWith('lib/persist/'))).toBe(
      false,
    );
    expect(names(sizes.everything)).toEqual(expect.arrayContaining(['lib/sync/index.ts', 'lib/persist/index.ts']));
  });
});
