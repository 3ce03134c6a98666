import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, isBillingError } from '../../lib';
import { REFERENCE_PATHS } from '../../lib/testing';
import { markdownPages } from '../helpers/markdown';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The text of a `## ` section of a page, up to the next `## `. */
function section(page: string, title: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`${page} has no section ## ${title}`);
  const next = text.indexOf('\n## ', start + 1);
  return text.slice(start, next < 0 ? undefined : next);
}

/** The first cell of each row of the section's tables, without its backticks. */
const firstCells = (text: string): string[] => [...text.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1]!);

describe('the reference pages (issue 25, point 5)', () => {
  it('docs/api.md lists every option createClient accepts, bootstrap and devtools included', () => {
    let names: string[] = [];
    try {
      createClient({ baseUrl: 'https://api.example.com', appKey: 'poster', nope: 1 } as never);
    } catch (error) {
      if (!isBillingError(error, 'invalid_argument')) throw error;
      names = /the options are (.+)$/.exec(error.message)![1]!.split(', ');
    }
    expect(names).toEqual(expect.arrayContaining(['bootstrap', 'devtools']));
    expect(firstCells(section('docs/api.md', 'Options')).sort()).toEqual([...names].sort());
  });

  it('docs/api.md lists every member of billing, snapshot() included, in the client table', () => {
    const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });
    const members = Object.keys(client.billing);
    client.billing.dispose();
    const rows = firstCells(section('docs/api.md', 'The client: `createClient(options)`')).map(
      (cell) => /^billing\.(\w+\$?)/.exec(cell)?.[1],
    );
    expect(members).toContain('snapshot');
    for (const member of members) expect({ member, listed: rows.includes(member) }).toEqual({ member, listed: true });
  });

  it('docs/backend-contract.md has the three calls: method, path, query or body, fields, codes', () => {
    const text = section('docs/backend-contract.md', 'The three calls');
    expect(text).toContain(`GET ${REFERENCE_PATHS.freeTrialCount}?module=generator_<appKey>`);
    expect(text).toContain(`GET ${REFERENCE_PATHS.balance}`);
    expect(text).toContain(`POST ${REFERENCE_PATHS.consume}`);
    for (const field of ['is_enabled', 'free_remaining', 'free_total', 'credits_per_use', 'balance', 'is_credit']) {
      expect(text).toContain(`\`${field}\``);
    }
    expect(text).toMatch(/"external_id"/);
    expect(text).toMatch(/\| 20101 +\| rejects `backend` +\| rejects `insufficient_credits`, nothing charged/);
    expect(text).toMatch(/\| 20102 +\| rejects `backend` +\| resolves `isBlacklisted: true`/);
  });

  it('the README says what the product is and is not in its first two paragraphs, naming the billing rules', () => {
    const [what, not] = README.slice(README.indexOf('\n\n') + 2).split('\n\n');
    expect(what).toMatch(/free period → free quota → credits/);
    expect(not).toMatch(/^What it is not/);
    expect(not).toMatch(/one unit/);
    expect(not).toMatch(/30 s free period is one of the billing rules \(free period, free quota, credits\)/);
    expect(not).toMatch(/Top-up UI, payment and\s+plans belong to your app/);
  });

  it('no page says "the spec" without saying what it is', () => {
    // The pages a user reads; the records of how the library was built (decisions, reliability, performance,
    // architecture) quote the product spec by that name.
    const records = ['docs/decisions.md', 'docs/reliability.md', 'docs/performance.md', 'docs/architecture.md'];
    const pages = markdownPages().filter((page) => !records.includes(page));
    expect(pages.length).toBeGreaterThan(15);
    const vague = pages.filter((page) => /\bthe spec\b|\bspec's\b/.test(readFileSync(join(ROOT, page), 'utf8')));
    expect(vague).toEqual([]);
  });
});
