import { join } from 'node:path';
import { ENTRY_BUDGETS } from '../../bench/size/budgets';
import { measureElementSize, type ElementSize } from '../../bench/size/element-size';

const names = (bundle: ElementSize['client']) => bundle.inputs.map((input) => input.path);

// The element entry costs at most its published gzip budget on top of a createClient app (issue 26's
// 3 KB goal, lowered by issue 38; `npm run size` checks the built entry), and nothing to an app that
// does not import it. Sizes are deterministic.
describe('bundle size of unified-billing/element (minified + gzipped, ESM, browser build)', () => {
  let size: ElementSize;
  beforeAll(async () => {
    size = await measureElementSize(join(__dirname, '../..'));
  });

  it('adds at most its gzip budget to the createClient app', () => {
    expect(size.added).toBeGreaterThan(0);
    expect(size.added).toBeLessThanOrEqual(ENTRY_BUDGETS.element.gzip);
  });

  it('the createClient-only app holds no element code; the other holds both elements', () => {
    expect(names(size.client).filter((path) => path.startsWith('lib/element/'))).toEqual([]);
    expect(names(size.withElements)).toEqual(expect.arrayContaining(['lib/element/meter.ts', 'lib/element/gate.ts']));
  });

  it('the element entry pulls nothing of the client in beyond what createClient already has', () => {
    const extra = names(size.withElements).filter((path) => !names(size.client).includes(path));
    expect(extra.every((path) => path.startsWith('lib/element/') || path === 'app.ts')).toBe(true);
  });
});
