import { join } from 'node:path';
import { WHEN_ADDED_GOAL } from '../../bench/size/budgets';
import { measureWhenSize, type WhenSize } from '../../bench/size/when-size';

// Issue 32: `when` costs at most 300 B min+gz on top of an app that calls refetchOn. Sizes are deterministic.
describe('bundle size of refetchOn({ when }) (minified + gzipped, ESM, browser, production)', () => {
  let size: WhenSize;
  beforeAll(async () => {
    size = await measureWhenSize(join(__dirname, '../..'));
  });

  it('adds at most 300 B to an app that calls refetchOn', () => {
    expect(size.added).toBeGreaterThan(0);
    expect(size.added).toBeLessThanOrEqual(WHEN_ADDED_GOAL);
  });

  it('the measured app holds when’s module; its development warning is not in the production build', () => {
    expect(size.withWhen.inputs.map((input) => input.path)).toContain('lib/features/refetch/when-source.ts');
    expect(size.withWhen.code).not.toContain('warned once per client');
  });
});
