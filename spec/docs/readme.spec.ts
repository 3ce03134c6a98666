import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '../../lib';
import { createReferenceBackend } from '../../lib/testing';
import { VirtualClock } from '../helpers/virtual-clock';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The text of a `## ` or `### ` section of a page (the README by default), up to the next heading of any level. */
function section(heading: string, page = 'README.md'): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`${page} has no section ${heading}`);
  const next = text.slice(start + heading.length).search(/\n#{1,3} /);
  return next < 0 ? text.slice(start) : text.slice(start, start + heading.length + next);
}

const codeBlocks = (text: string): string[] => [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);

/** Lines of a README block missing from its type-checked copy in docs/examples (imports aside). */
function missingFrom(example: string, block: string): string[] {
  const source = readFileSync(join(ROOT, 'docs', 'examples', example), 'utf8');
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('import ') && !source.includes(line));
}

describe('README and its pages (issue 18.10)', () => {
  it('never sends a user into contributor material: no set-up commands, no CONTRIBUTING.md (it has them)', () => {
    expect(README).not.toMatch(/CONTRIBUTING/);
    expect(README).not.toMatch(/npm (ci|start)\b|npm run test:browser/);
    const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    for (const command of ['npm start', 'npm test', 'npm run test:browser']) expect(contributing).toContain(command);
  });

  it('quick start: no top-up prompt from check() before the first fetch, as its type-checked copy', () => {
    const [block] = codeBlocks(section('## Quick start'));
    const checks = block!.split('\n').filter((line) => line.includes('.check()'));
    expect(checks.length).toBeGreaterThan(0);
    for (const line of checks) expect(line).toMatch(/\bloaded && /);
    expect(missingFrom('quick-start.ts', block!)).toEqual([]);
  });

  it('docs/compose.md: combineLatest, its example, and the symbol-observable note', () => {
    const text = readFileSync(join(ROOT, 'docs', 'compose.md'), 'utf8');
    expect(text).toContain('combineLatest');
    expect(text).toMatch(/`symbol-observable`[\s\S]*before[\s\S]*rxjs/);
    const blocks = codeBlocks(text);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(missingFrom('compose-stores.ts', block)).toEqual([]);
  });

  it('before the first fetch: a consume does not fill the cache, as docs/billing-rules.md says', async () => {
    expect(section('## Before the first fetch', 'docs/billing-rules.md')).toContain('A consume does not fill it');
    const backend = createReferenceBackend({
      users: [{ token: 't', freeRemaining: 0, freeTotal: 3, creditsPerUse: 10, creditsBalance: 50 }],
    });
    const clock = new VirtualClock();
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      headers: { Authorization: 'Bearer t' },
      fetch: backend.fetch,
      scheduler: clock,
    });
    const emitted: unknown[] = [];
    client.billing.usage$.subscribe((usage) => emitted.push(usage));
    try {
      const result = await client.billing.consume(); // a credit charge, balance refreshed
      expect(result.isCredit).toBe(true);
      expect(client.billing.getCachedUsage()).toBeNull();
      expect(client.billing.getStatus().loaded).toBe(false);
      expect(client.billing.check().reason).toBe('free_period');
      clock.advanceBy(30_000);
      expect(client.billing.check()).toEqual({ canProceed: false, reason: 'insufficient' });
      expect(emitted).toEqual([]);
      await client.billing.getUsage();
      expect(client.billing.getStatus().loaded).toBe(true);
      expect(emitted).toHaveLength(1);
    } finally {
      client.billing.dispose();
      await backend.close();
    }
  });
});
