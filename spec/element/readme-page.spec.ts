import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Issue 26, "done when": the docs show a page that meters and gates an export with no
// framework in under 15 lines (docs/elements.md, linked from the README).
const README = readFileSync(join(__dirname, '..', '..', 'docs', 'elements.md'), 'utf8');
const HEADING = '# Billing UI for any framework: `<billing-meter>` and `<billing-gate>`';

describe('docs/elements.md: the no-framework page of the billing elements', () => {
  const start = README.indexOf(`${HEADING}\n`);
  const section = README.slice(start);
  const page = /```html\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

  it('is one HTML block under 15 lines that registers, binds and listens to both elements', () => {
    expect(start).toBe(0);
    expect(page.trimEnd().split('\n').length).toBeLessThan(15);
    expect(page).toContain("from 'unified-billing/element'");
    expect(page).toMatch(/defineBillingElements\(\)/);
    expect(page).toMatch(/<billing-meter[^>]*>/);
    expect(page).toMatch(/<billing-gate><button type="button">/);
    expect(page).toMatch(/\.billing = gate\.billing = billing/);
    expect(page).toMatch(/'billing-granted'/);
  });
});
