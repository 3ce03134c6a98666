import { build } from 'esbuild';
import { resolve } from 'node:path';
import { devFlag } from '../../scripts/dev-flag.cjs';

/**
 * Bundles the demo page for the browser from the library's own sources (rxjs
 * inlined), in memory: the page runs
 * exactly the code in lib/, with nothing written to disk.
 */
export async function bundlePage(): Promise<string> {
  // run-ts.mjs bundles this file, which moves it: it says where the sources are.
  const root = process.env['PLAYGROUND_ROOT'] ?? resolve(__dirname, '..', '..');
  const result = await build({
    entryPoints: [resolve(root, 'playground', 'page', 'main.ts')],
    bundle: true,
    plugins: [devFlag],
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild produced no page bundle');
  return output.text;
}
