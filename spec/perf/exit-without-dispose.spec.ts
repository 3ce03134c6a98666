import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REFERENCE_PATHS, startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import { bundleForNode } from '../helpers/node-bundle';

const root = join(__dirname, '../..');
// Inside node_modules so the bundle's external packages resolve as in the repo.
const outfile = join(root, 'node_modules/.cache/unified-billing-perf/use-without-dispose.cjs');
// Past the 30 s free period a leaked timer holds the process for, so a failing
// run still shows the real figure; a hang guard, not a timing.
const HANG_GUARD_MS = 40_000;
// Generous: the process should exit within milliseconds of its last line.
const EXIT_BOUND_MS = 5_000;

interface ChildRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly report: { done?: boolean; isCredit?: boolean; reason?: string; failed?: string };
  /** From the child's last line on stdout to its exit, measured by this process. */
  readonly exitAfterMs: number;
}

function runChild(baseUrl: string): Promise<ChildRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [outfile, baseUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    let stdout = '';
    let lastLineAt = performance.now();
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      lastLineAt = performance.now();
    });
    child.on('exit', (code, signal) => {
      const exitAfterMs = performance.now() - lastLineAt;
      clearTimeout(guard);
      const lines = stdout.trim().split('\n');
      resolve({
        code,
        signal,
        report: JSON.parse(lines[lines.length - 1] || '{}') as ChildRun['report'],
        exitAfterMs,
      });
    });
  });
}

const user = { token: 'exit', freeRemaining: 0, freeTotal: 3, creditsPerUse: 1, creditsBalance: 100 };

beforeAll(async () => {
  await bundleForNode(join(__dirname, 'fixtures/use-without-dispose.ts'), outfile);
});

describe('a Node process exits without dispose()', () => {
  let backend: ReferenceBackend;
  let run: ChildRun;
  beforeAll(async () => {
    backend = await startReferenceBackend({ users: [user] });
    run = await runChild(backend.url);
    console.log(`exit after the last line: ${Math.round(run.exitAfterMs)} ms (bound ${EXIT_BOUND_MS} ms)`);
  }, HANG_GUARD_MS + 10_000);
  afterAll(() => backend.close());

  it('the child charged against the reference backend and a free period was running when it finished', () => {
    expect(run.report).toEqual({ done: true, isCredit: true, reason: 'free_period' });
    expect(backend.charges()).toEqual([expect.objectContaining({ kind: 'credits' })]);
  });

  it('exits on its own with code 0 soon after its last line, not when the 30 s free period ends', () => {
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
    expect(run.exitAfterMs).toBeLessThan(EXIT_BOUND_MS);
  });
});

// The other half of the rule: a timer that belongs to a call someone awaits
// keeps the process alive. During a retry's backoff no request is in flight,
// so only the backoff timer stands between the script and its charge.
describe('a retry backoff still keeps a Node process alive', () => {
  let backend: ReferenceBackend;
  let run: ChildRun;
  beforeAll(async () => {
    backend = await startReferenceBackend({ users: [user] });
    backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 503, retryAfter: '1' });
    run = await runChild(backend.url);
  }, HANG_GUARD_MS + 10_000);
  afterAll(() => backend.close());

  it('the consume waits out Retry-After, is retried and charged, and the script reaches its last line', () => {
    expect(run.report).toEqual({ done: true, isCredit: true, reason: 'free_period' });
    const posts = backend.requests().filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.fault ?? 'answered')).toEqual(['status', 'answered']);
    expect(backend.charges()).toEqual([expect.objectContaining({ kind: 'credits' })]);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
  });
});
