import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_BUDGETS, UNBUDGETED_EXPORTS, type EntryBudget } from '../../bench/size/budgets';

const root = join(__dirname, '../..');
type Conditions = { readonly [condition: string]: string | Conditions };
const exportsMap = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Conditions }).exports;

// The file a browser app's bundler takes for an ESM import of this export.
function browserFile(conditions: string | Conditions): string {
  if (typeof conditions === 'string') return conditions;
  const next = conditions.browser ?? conditions.import ?? conditions.default;
  if (next === undefined) throw new Error(`no browser, import or default condition in ${JSON.stringify(conditions)}`);
  return browserFile(next);
}

const budgets: readonly EntryBudget[] = Object.values(ENTRY_BUDGETS);
const unbudgeted: readonly string[] = UNBUDGETED_EXPORTS;

// `npm run size` checks dist/ against these budgets; here, that no entry point goes without one.
describe('size budgets (bench/size/budgets.ts)', () => {
  it.each(Object.keys(exportsMap).filter((name) => !unbudgeted.includes(name)))(
    'the export %s has a budget on the file browser apps bundle',
    (name) => {
      const file = browserFile(exportsMap[name] ?? '').replace(/^\.\//, '');
      expect(budgets.map((budget) => budget.path)).toContain(file);
    },
  );

  it('every budget gives brotli below gzip, as the two compressors do on minified code', () => {
    for (const budget of budgets) expect(budget.brotli).toBeLessThan(budget.gzip);
  });
});
