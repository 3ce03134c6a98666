import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '../../lib';
import { createReferenceBackend } from '../../lib/testing';
import { VirtualClock } from '../helpers/virtual-clock';

const ROOT = join(__dirname, '..', '..');

function filesUnder(dir: string, ends: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, ends) : ends.test(name) ? [path] : [];
  });
}

// Code only: fenced blocks of Markdown, and TypeScript files whole (their TSDoc examples included).
function codeOf(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (!path.endsWith('.md')) return text;
  return [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
}

describe('ids: the docs teach one externalId per user action (issue 9.9)', () => {
  it('no example builds an externalId from what is exported (a template with a value in it)', () => {
    const files = [
      join(ROOT, 'README.md'),
      ...filesUnder(join(ROOT, 'docs'), /\.(md|ts)$/),
      ...filesUnder(join(ROOT, 'lib'), /\.ts$/),
      ...filesUnder(join(ROOT, 'playground'), /\.(ts|html)$/),
    ];
    const offenders = files.flatMap((path) =>
      codeOf(path)
        .split('\n')
        .filter((line) => /externalId\s*[:=]\s*`[^`]*\$\{/.test(line))
        .map((line) => `${path.slice(ROOT.length + 1)}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('reusing an id does what the README says: the first answer again, nothing more charged, a new free period', async () => {
    const backend = createReferenceBackend({
      users: [{ token: 't', freeRemaining: 2, freeTotal: 2, creditsPerUse: 1, creditsBalance: 5 }],
    });
    const clock = new VirtualClock();
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      headers: { Authorization: 'Bearer t' },
      fetch: backend.fetch,
      scheduler: clock,
    });
    try {
      await client.billing.getUsage();
      const first = await client.billing.consume({ externalId: 'click-1' });
      clock.advanceBy(30_000);
      expect(client.billing.check().reason).toBe('free_count');
      const again = await client.billing.consume({ externalId: 'click-1' });
      expect(again).toEqual(first);
      expect(backend.charges()).toHaveLength(1);
      expect(client.billing.check().reason).toBe('free_period');
    } finally {
      client.billing.dispose();
      await backend.close();
    }
  });
});
