import { build } from 'esbuild';
import { devFlag } from '../../scripts/dev-flag.cjs';

/** Bundles a TypeScript fixture into a CommonJS file a child `node` process runs (npm packages stay external). */
export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    plugins: [devFlag],
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    logLevel: 'silent',
  });
}
