import { createHook } from 'node:async_hooks';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { createClient } from '../../../lib';
import { createReferenceBackend, REFERENCE_PATHS, startReferenceBackend } from '../../../lib/testing';
import { makeUser, MODULE } from '../http-helpers';
import { bundleForNode } from '../../helpers/node-bundle';
import { devFlag } from '../../../scripts/dev-flag.cjs';

const root = join(__dirname, '../..');
// Inside node_modules so the bundle's external packages resolve as in the repo.
const cacheDir = join(root, 'node_modules/.cache/unified-billing-in-process');
// Far beyond a normal run (well under a second) yet well before Jest's own
// timeout: a hang guard, not a timing.
const HANG_GUARD_MS = 15_000;

/** Resources in `after` beyond those in `before`, as a multiset difference. */
function added(before: readonly string[], after: readonly string[]): string[] {
  const left = [...before];
  return after.filter((kind) => {
    const index = left.indexOf(kind);
    if (index === -1) return true;
    left.splice(index, 1);
    return false;
  });
}

/**
 * Records every timer that code under lib/ arms from now on; `stop()` returns the
 * creation stacks of those still armed and holding the process (ref'd).
 */
function timersFromLib(): { stop(): string[] } {
  const armed: { timer: NodeJS.Timeout; stack: string }[] = [];
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type !== 'Timeout') return;
      const stack = new Error().stack ?? '';
      if (/[\\/]lib[\\/]/.test(stack)) armed.push({ timer: resource as NodeJS.Timeout, stack });
    },
  }).enable();
  return {
    stop() {
      hook.disable();
      const destroyed = (timer: NodeJS.Timeout) => (timer as unknown as { _destroyed: boolean })._destroyed;
      return armed.filter(({ timer }) => !destroyed(timer) && timer.hasRef()).map(({ stack }) => stack);
    },
  };
}

describe('createReferenceBackend: a client with no socket', () => {
  test('a client over backend.fetch reads usage and charges, on any origin', async () => {
    const user = makeUser({ freeRemaining: 1, freeTotal: 3, creditsPerUse: 10, creditsBalance: 25 });
    const backend = createReferenceBackend({ users: [user] });
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'demo',
      headers: { Authorization: `Bearer ${user.token}` },
      fetch: backend.fetch,
    });
    try {
      await expect(client.billing.getUsage()).resolves.toMatchObject({
        freeRemaining: 1,
        freeTotal: 3,
        creditsBalance: 25,
      });
      await expect(client.billing.consume({ externalId: 'in-process-1' })).resolves.toMatchObject({
        isCredit: false,
      });
      expect(backend.charges()).toEqual([
        { token: user.token, module: MODULE, externalId: 'in-process-1', kind: 'free', amount: 1 },
      ]);
      expect(backend.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        `GET ${REFERENCE_PATHS.freeTrialCount} 200`,
        `GET ${REFERENCE_PATHS.balance} 200`,
        `POST ${REFERENCE_PATHS.consume} 200`,
      ]);
    } finally {
      client.billing.dispose();
    }
  });

  test('invalid or duplicate users throw; close() is idempotent and later requests fail like a refused connection', async () => {
    const user = makeUser();
    expect(() => createReferenceBackend({ users: [user, { ...user }] })).toThrow();
    expect(() => createReferenceBackend({ users: [{ ...makeUser(), creditsBalance: -5 }] })).toThrow(TypeError);
    const backend = createReferenceBackend({ users: [user] });
    await backend.close();
    await backend.close();
    await expect(backend.fetch(`http://billing.test${REFERENCE_PATHS.balance}`)).rejects.toMatchObject({
      name: 'TypeError',
      cause: { code: 'ECONNREFUSED' },
    });
    expect(backend.requests()).toEqual([]);
  });

  test('fetch takes a Request, a URL and Headers like the global fetch', async () => {
    const user = makeUser({ creditsBalance: 4 });
    const backend = createReferenceBackend({ users: [user] });
    const headers = new Headers({ Authorization: `Bearer ${user.token}` });
    const viaRequest = await backend.fetch(new Request(`http://x.test${REFERENCE_PATHS.balance}`, { headers }));
    const viaUrl = await backend.fetch(new URL(`https://y.test${REFERENCE_PATHS.balance}`), { headers });
    expect(await viaRequest.json()).toMatchObject({ data: { balance: 4 } });
    expect(await viaUrl.json()).toMatchObject({ data: { balance: 4 } });
    const post = new Request(`http://x.test${REFERENCE_PATHS.consume}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ module: MODULE, external_id: 'as-request' }),
    });
    expect(await (await backend.fetch(post)).json()).toMatchObject({ code: 0 });
    // A string body without a content type is text/plain, as fetch sends it.
    const plain = await backend.fetch(`http://x.test${REFERENCE_PATHS.consume}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ module: MODULE, external_id: 'plain' }),
    });
    expect(plain.status).toBe(415);
  });

  test('startReferenceBackend’s fetch and its server share one state', async () => {
    const user = makeUser({ freeRemaining: 0, creditsPerUse: 10, creditsBalance: 25 });
    const backend = await startReferenceBackend({ users: [user] });
    try {
      const charged = await backend.fetch(`http://anything.test${REFERENCE_PATHS.consume}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ module: MODULE, external_id: 'shared' }),
      });
      expect(await charged.json()).toMatchObject({ code: 0, data: { is_credit: true } });
      const overHttp = await fetch(`${backend.url}${REFERENCE_PATHS.balance}`, {
        headers: { Authorization: `Bearer ${user.token}` },
      });
      expect(await overHttp.json()).toMatchObject({ data: { balance: 15 } });
      expect(backend.requests().map((r) => r.method)).toEqual(['POST', 'GET']);
    } finally {
      await backend.close();
    }
  });

  test('a client over backend.fetch leaves no active resource behind', async () => {
    const user = makeUser({ freeRemaining: 0 });
    const before = process.getActiveResourcesInfo();
    const ours = timersFromLib();
    const backend = createReferenceBackend({ users: [user] });
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'demo',
      headers: { Authorization: `Bearer ${user.token}` },
      fetch: backend.fetch,
    });
    await client.billing.getUsage();
    await client.billing.consume();
    client.billing.dispose();
    await new Promise((resolve) => setImmediate(resolve));
    // Our own timers, told apart by where they were made: a busy CI machine once showed
    // a foreign "Timeout" (Jest's or undici's) among the process's resources here.
    expect(ours.stop()).toEqual([]);
    expect(added(before, process.getActiveResourcesInfo()).filter((kind) => kind !== 'Timeout')).toEqual([]);
    expect(backend.charges()).toHaveLength(1);
  });

  test(
    'a Node process that charges through backend.fetch exits by itself at once',
    async () => {
      const outfile = join(cacheDir, 'in-process-client.cjs');
      await bundleForNode(join(__dirname, 'fixtures/in-process-client.ts'), outfile);
      const run = await new Promise<{ code: number | null; killed: boolean; stdout: string }>((resolve) => {
        execFile(process.execPath, [outfile], { timeout: HANG_GUARD_MS }, (error, stdout) => {
          const exit = error as (Error & { code?: number; killed?: boolean }) | null;
          resolve({ code: exit === null ? 0 : (exit.code ?? null), killed: exit?.killed ?? false, stdout });
        });
      });
      expect({ code: run.code, killed: run.killed }).toEqual({ code: 0, killed: false });
      const lines = run.stdout.trim().split('\n');
      expect(JSON.parse(lines[lines.length - 1] ?? '{}')).toEqual({ freeRemaining: 1, charges: 1, holding: [] });
    },
    HANG_GUARD_MS + 10_000,
  );

  test('unified-billing/testing bundles for the browser: no Node built-in is reached', async () => {
    const result = await build({
      stdin: {
        contents: "export { createReferenceBackend } from '../lib/testing';",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      plugins: [devFlag],
      write: false,
      platform: 'browser',
      format: 'esm',
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    expect(result.errors).toEqual([]);
    expect(code).toContain('createReferenceBackend');
    // The server's node:http is loaded at run time only, through a variable no bundler follows.
    expect(code).not.toMatch(/from\s*["'](node:)?(http|net|stream|buffer)["']/);
    expect(code).not.toMatch(/require\(["'](node:)?(http|net|stream|buffer)["']\)/);
  });
});
