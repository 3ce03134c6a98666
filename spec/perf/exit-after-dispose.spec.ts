import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import { bundleForNode } from '../helpers/node-bundle';

const root = join(__dirname, '../..');
// Inside node_modules so the bundle's external packages resolve as in the repo.
const outfile = join(root, 'node_modules/.cache/unified-billing-perf/use-and-dispose.cjs');
// Far beyond a normal run (well under a second) yet before the 30 s free
// period a leaked timer would hold the process for: a hang guard, not a timing.
const HANG_GUARD_MS = 20_000;

interface ChildRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly report: { disposed?: boolean; holding?: string[]; failed?: string };
}

function runChild(baseUrl: string): Promise<ChildRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [outfile, baseUrl], { timeout: HANG_GUARD_MS }, (error, stdout) => {
      const exit = error as (Error & { code?: number | string; signal?: NodeJS.Signals }) | null;
      const lines = stdout.trim().split('\n');
      resolve({
        code: exit === null ? 0 : typeof exit.code === 'number' ? exit.code : null,
        signal: exit?.signal ?? null,
        report: JSON.parse(lines[lines.length - 1] || '{}') as ChildRun['report'],
      });
    });
  });
}

describe('after dispose() no handle is left', () => {
  let backend: ReferenceBackend;
  let run: ChildRun;
  beforeAll(async () => {
    backend = await startReferenceBackend({
      users: [{ token: 'exit', freeRemaining: 0, freeTotal: 3, creditsPerUse: 1, creditsBalance: 100 }],
    });
    await bundleForNode(join(__dirname, 'fixtures/use-and-dispose.ts'), outfile);
    run = await runChild(backend.url);
  }, HANG_GUARD_MS + 5_000);
  afterAll(() => backend.close());

  it('a Node process that creates a client, uses it and disposes it exits on its own', () => {
    expect(run.report).toEqual({ disposed: true, holding: expect.any(Array) });
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
  });

  it('the session really reached the backend: a credits charge, its refresh, a free consume', () => {
    expect(backend.charges()).toEqual([expect.objectContaining({ kind: 'credits' })]);
    expect(backend.requests().map((request) => request.method)).toEqual(['GET', 'GET', 'POST', 'GET', 'GET']);
  });

  it('no timer is left once dispose() has run (only sockets that close on their own)', () => {
    expect(run.report.holding).not.toContain('Timeout');
  });
});
