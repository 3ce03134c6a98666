import { build } from 'esbuild';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { devFlag } from '../../scripts/dev-flag.cjs';

// Issue 24: where nothing defines `process` (a browser loading the package with
// no bundler, Deno without its Node globals), the package still loads and
// works, and its errors are the production ones: the development layer's
// lookup of process.env.NODE_ENV is guarded (lib/shared/dev.ts). The browser
// build of lib/index.ts, with nothing replaced, runs in a realm of its own that
// has the web globals the library uses and no `process`.
const ROOT = join(__dirname, '../..');
const BASE = 'https://api.example.com';

async function browserBundle(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    stdin: { contents: "export * from './lib/index.ts';", resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    plugins: [devFlag],
    // Neutral: esbuild defines process.env.NODE_ENV for the browser platform, and nothing here must.
    platform: 'neutral',
    mainFields: ['module', 'main'],
    format: 'iife',
    globalName: 'unifiedBilling',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('without process (issue 24)', () => {
  let code: string;
  beforeAll(async () => {
    code = await browserBundle();
  });

  it('the bundle still reads process.env.NODE_ENV: nothing replaced it', () => {
    expect(code).toContain('process.env.NODE_ENV');
  });

  it('loads, and a failed call rejects with the production error', async () => {
    const realm = createContext({
      URL,
      AbortController,
      setTimeout,
      clearTimeout,
      queueMicrotask,
      performance,
      crypto,
      btoa,
      atob,
      console,
    });
    runInContext(code, realm);
    expect(runInContext('typeof process', realm)).toBe('undefined');
    const { createClient } = realm.unifiedBilling as typeof import('../../lib');
    const client = createClient({
      baseUrl: BASE,
      appKey: 'poster',
      retries: 0,
      fetch: async () => new Response('<html></html>', { status: 404, headers: { 'content-type': 'text/html' } }),
    });
    const error = await client.credits.getBalance().catch((caught: unknown) => caught);
    client.billing.dispose();
    expect(error).toMatchObject({
      name: 'BillingError',
      code: 'http',
      status: 404,
      message: `HTTP 404 on GET ${BASE}/ai/v1/credit/getBalance`,
    });
  });
});
