import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, isBillingError } from '../../lib';
import { REFERENCE_PATHS } from '../../lib/testing';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const headings = [...README.matchAll(/^## (.+)$/gm)].map((match) => match[1]!);

/** The text of a `## ` section, up to the next `## `. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no section ## ${title}`);
  const next = README.indexOf('\n## ', start + 1);
  return README.slice(start, next < 0 ? undefined : next);
}

/** The first cell of each row of the section's tables, without its backticks. */
const firstCells = (text: string): string[] => [...text.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1]!);

describe("the README's reference (issue 25, point 5)", () => {
  it('lists every option createClient accepts, bootstrap and devtools included', () => {
    let names: string[] = [];
    try {
      createClient({ baseUrl: 'https://api.example.com', appKey: 'poster', nope: 1 } as never);
    } catch (error) {
      if (!isBillingError(error, 'invalid_argument')) throw error;
      names = /the options are (.+)$/.exec(error.message)![1]!.split(', ');
    }
    expect(names).toEqual(expect.arrayContaining(['bootstrap', 'devtools']));
    expect(firstCells(section('Options')).sort()).toEqual([...names].sort());
  });

  it('lists every member of billing, snapshot() included, in the API table', () => {
    const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });
    const members = Object.keys(client.billing);
    client.billing.dispose();
    const rows = firstCells(section('API')).map((cell) => /^billing\.(\w+\$?)/.exec(cell)?.[1]);
    expect(members).toContain('snapshot');
    for (const member of members) expect({ member, listed: rows.includes(member) }).toEqual({ member, listed: true });
  });

  it('has the table of the three backend calls: method, path, query or body, fields, codes', () => {
    const text = section('The three backend calls');
    expect(text).toContain(`GET ${REFERENCE_PATHS.freeTrialCount}?module=generator_<appKey>`);
    expect(text).toContain(`GET ${REFERENCE_PATHS.balance}`);
    expect(text).toContain(`POST ${REFERENCE_PATHS.consume}`);
    for (const field of ['is_enabled', 'free_remaining', 'free_total', 'credits_per_use', 'balance', 'is_credit']) {
      expect(text).toContain(`\`${field}\``);
    }
    expect(text).toMatch(/"external_id"/);
    expect(text).toMatch(/20101: rejects `insufficient_credits`/);
    expect(text).toMatch(/20102: resolves `isBlacklisted: true`/);
  });

  it('puts API and Options right after "How a consume is decided", the niche sections after them', () => {
    const at = (title: string) => headings.indexOf(title);
    expect(at('API')).toBe(at('How a consume is decided') + 1);
    expect(at('Options')).toBe(at('API') + 1);
    for (const niche of ['Compose with other stores', 'Switching users without remounting']) {
      expect(at(niche)).toBeGreaterThan(at('Options'));
    }
  });

  it('says what the product is not in its first paragraph', () => {
    const first = README.slice(README.indexOf('\n\n') + 2).split('\n\n')[0]!;
    expect(first).toMatch(/What it is not/);
    expect(first).toMatch(/one unit/);
    expect(first).toMatch(/30 s free period is the spec's/);
    expect(first).toMatch(/Top-up UI, payment and\s+plans belong to your app/);
  });
});
