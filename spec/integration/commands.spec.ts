import { spawn, type ChildProcess } from 'node:child_process';
import manifest from '../../package.json';

// The commands of contract section 6 as a user types them.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Run {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

function run(args: string[], env: Record<string, string> = {}, command = npm): Run {
  // Its own process group, so a signal reaches npm and node together, as Ctrl-C does.
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(run: Run, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = run.output().match(pattern);
    if (match !== null) return match;
    const exited = await Promise.race([
      run.exited.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 20)),
    ]);
    if (exited) throw new Error(`exited before printing ${pattern}:\n${run.output()}`);
  }
}

function startScript(): string | undefined {
  return (manifest.scripts as Record<string, string | undefined>)['start'];
}

describe('npm start and npm run demo', () => {
  test('npm start prints the URL and the demo users, serves the page, and Ctrl-C stops it', async () => {
    const started = run(['start', '--silent'], { PORT: '0' });
    try {
      const [, url] = await waitFor(started, /playground: (http:\/\/127\.0\.0\.1:\d+)\//);
      await waitFor(started, /Ctrl-C stops it/);
      for (const token of ['demo-free', 'demo-credits', 'demo-broke', 'demo-blacklisted']) {
        expect(started.output()).toContain(token);
      }
      const page = await fetch(`${url}/`);
      expect(await page.text()).toContain('data-testid="export"');
      process.kill(-(started.child.pid ?? 0), 'SIGINT');
      // npm itself dies of the SIGINT (as in a terminal); the playground under it closes first.
      await started.exited;
      expect(started.output()).toContain('SIGINT: stopping the playground');
      await expect(fetch(`${url}/`)).rejects.toThrow();
    } finally {
      if (started.child.exitCode === null) process.kill(-(started.child.pid ?? 0), 'SIGKILL');
    }
  });

  test('the start script’s own process exits 0 on SIGTERM, with the port closed', async () => {
    // `exec` is the shell's: the command after it is the script's own process.
    const [command = 'node', ...args] = (startScript() ?? '').replace(/^exec /, '').split(' ');
    const started = run(args, { PORT: '0' }, command);
    const [, url] = await waitFor(started, /playground: (http:\/\/127\.0\.0\.1:\d+)\//);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });

  // Issue 25 §6: a signal to npm alone (a supervisor, `kill <npm pid>`), not to the whole
  // group as a terminal's Ctrl-C: npm forwards it, and a shell between npm and node used to
  // swallow SIGINT and die of SIGTERM, leaving the server answering.
  describe('a signal to npm alone', () => {
    let started: Run | undefined;
    afterEach(() => {
      // Whatever is left of the group (npm that never exited, an orphaned server), even after a timeout.
      try {
        process.kill(-(started?.child.pid ?? 0), 'SIGKILL');
      } catch {
        // The group is gone: nothing was left.
      }
    });

    test.each(['SIGINT', 'SIGTERM'] as const)('%s: npm start exits, with the port closed', async (signal) => {
      const npmStart = (started = run(['start', '--silent'], { PORT: '0' }));
      const [, url] = await waitFor(npmStart, /playground: (http:\/\/127\.0\.0\.1:\d+)\//);
      await waitFor(npmStart, /Ctrl-C stops it \(or SIGTERM: kill \d+/);
      expect((await fetch(`${url}/`)).status).toBe(200);
      npmStart.child.kill(signal);
      await npmStart.exited;
      expect(npmStart.output()).toContain(`${signal}: stopping the playground`);
      await expect(fetch(`${url}/`)).rejects.toThrow();
    });
  });

  test('npm start with a taken port says so and exits non-zero', async () => {
    const first = run(['start', '--silent'], { PORT: '0' });
    try {
      const [, port] = await waitFor(first, /playground: http:\/\/127\.0\.0\.1:(\d+)\//);
      const second = run(['start', '--silent'], { PORT: port ?? '' });
      expect(await second.exited).not.toBe(0);
      expect(second.output()).toContain(`Port ${port} is taken`);
    } finally {
      process.kill(-(first.child.pid ?? 0), 'SIGTERM');
      await first.exited;
    }
  });

  test('npm run demo prints the walk-through table and exits 0', async () => {
    const demo = run(['run', 'demo', '--silent']);
    expect(await demo.exited).toBe(0);
    const output = demo.output();
    for (const step of ['free quota', 'free period', 'credits', 'insufficient', 'blacklisted']) {
      expect(output).toContain(step);
    }
    expect(output).toContain('GET /ai/v1/credit/getBalance');
    expect(output).toContain('Every step behaved as the spec says.');
  });
});
