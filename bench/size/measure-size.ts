import { build, type Metafile } from 'esbuild';
import { gzipSync } from 'node:zlib';

/** Minified and gzipped bytes of one bundle. */
export interface Bundle {
  readonly minified: number;
  readonly gzipped: number;
  /** Minified bytes each input contributes, largest first: where the bytes go. */
  readonly inputs: ReadonlyArray<{ readonly path: string; readonly bytes: number }>;
}

/** The three bundles of the size figures (see docs/performance.md), plus the whole barrel. */
export interface SizeFigures {
  /** Every export of lib/index.ts, the opt-in tabSync() and reloadSafe() included (rxjs, uuid, cross-fetch external). */
  readonly everything: Bundle;
  /** The library's own code: rxjs, uuid and cross-fetch external. */
  readonly own: Bundle;
  /** Own code with the parts of rxjs it pulls in (uuid and cross-fetch external): the budgeted total. */
  readonly total: Bundle;
  /** Everything a browser bundle gets, uuid and cross-fetch's browser ponyfill included. */
  readonly totalWithDeps: Bundle;
}

const DEPENDENCIES = ['uuid', 'cross-fetch'];

/** The inputs' shares, folded per npm package (a file of lib/ stays a file). */
function inputsOf(metafile: Metafile): Bundle['inputs'] {
  const bytes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const name = path.includes('node_modules/') ? (path.split('node_modules/').pop()?.split('/')[0] ?? path) : path;
      bytes.set(name, (bytes.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  return [...bytes].map(([path, size]) => ({ path, bytes: size })).sort((a, b) => b.bytes - a.bytes);
}

// What a user's browser build does: ESM, minified, tree-shaken, resolving
// packages the default way (rxjs's `esm5` build, as Vite and webpack pick it).
// What an app imports for billing; the opt-in features are factories it would
// have to call, so a bundler drops them from this build.
const APP_IMPORTS = "export { createClient, consumeWith, BillingError, isBillingError } from './lib/index.ts';";

async function bundle(root: string, external: string[], contents = APP_IMPORTS): Promise<Bundle> {
  const result = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'app.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    external,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, inputs: inputsOf(result.metafile) };
}

/** Deterministic: the same sources and lockfile give the same bytes. */
export async function measureSize(root: string): Promise<SizeFigures> {
  return {
    own: await bundle(root, ['rxjs', ...DEPENDENCIES]),
    total: await bundle(root, DEPENDENCIES),
    totalWithDeps: await bundle(root, []),
    everything: await bundle(root, ['rxjs', ...DEPENDENCIES], "export * from './lib/index.ts';"),
  };
}
