import { build, type Metafile, type Plugin } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { devFlag } from '../../scripts/dev-flag.cjs';

/** Minified and gzipped bytes of one bundle. */
export interface Bundle {
  readonly minified: number;
  readonly gzipped: number;
  /** The minified code itself, for checks of what is in it. */
  readonly code: string;
  /** Minified bytes each input contributes, largest first: where the bytes go. */
  readonly inputs: ReadonlyArray<{ readonly path: string; readonly bytes: number }>;
}

/**
 * Which platform the app's bundler builds for (the package has one build for all):
 * - `browser`: bundled for browsers (rxjs's `esm5` build, as Vite and webpack pick it);
 *   React Native's Metro resolves the same files (the `react-native` condition);
 * - `node`: bundled for Node (rxjs's CommonJS build, which Node's `node` condition
 *   picks and nothing can tree-shake). Nothing of it is downloaded; reported for completeness.
 */
export type Target = 'browser' | 'node';

/**
 * What the app's bundler sets `process.env.NODE_ENV` to: `production` drops
 * the development layer (lib/shared/dev.ts: the long messages, the option-name
 * checks), as every bundler does for a production build; `development` keeps it.
 */
export type Mode = 'production' | 'development';

/** Own code (rxjs external) and everything a bundle pulls in. */
export interface OwnAndTotal {
  readonly own: Bundle;
  readonly total: Bundle;
}

/** Every bundle of the size rows (see docs/performance.md). */
export interface SizeFigures {
  /** An app importing only `createClient`, production build (the size goals). */
  readonly client: Readonly<Record<Target, OwnAndTotal>>;
  /** The same app, bundled for browsers, as its bundler builds it for development. */
  readonly clientDevelopment: OwnAndTotal;
  /** An app importing every export of lib/index.ts (`export *`), tabSync() and reloadSafe() included. */
  readonly barrel: Readonly<Record<Target, OwnAndTotal>>;
  /** An app that uses about 25 rxjs operators and creators, alone and with `createClient`, for browsers. */
  readonly rxjsApp: { readonly alone: Bundle; readonly withClient: Bundle };
}

const EXTERNAL = ['rxjs'];

// The built package is one file with its peers external and declared side-effect free
// (scripts/build.mjs), so an import of one that nothing uses is not in dist/ at all. Bundling lib/
// from source, esbuild is told the same, bundled or external.
const RESOLVING = Symbol('resolving');
const pureDependencies: Plugin = {
  name: 'pure-dependencies',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^rxjs(\/|$)/ }, async (args) => {
      if (args.pluginData === RESOLVING) return undefined;
      if (pluginBuild.initialOptions.external?.includes(args.path.split('/')[0] ?? '')) {
        return { path: args.path, external: true, sideEffects: false };
      }
      const { path, errors } = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: RESOLVING,
      });
      return errors.length > 0 ? { errors } : { path, sideEffects: false };
    });
  },
};

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

/** An app importing only `createClient`: what the byte goals are about. */
export const CLIENT_ONLY = "export { createClient } from './lib/index.ts';";
const BARREL = "export * from './lib/index.ts';";

/** About 25 of the rxjs operators and creators an RxJS app commonly uses. */
export const RXJS_APP_OPERATORS = [
  'map',
  'filter',
  'switchMap',
  'mergeMap',
  'concatMap',
  'take',
  'takeUntil',
  'debounceTime',
  'distinctUntilChanged',
  'combineLatest',
  'merge',
  'of',
  'from',
  'timer',
  'BehaviorSubject',
  'Subject',
  'share',
  'shareReplay',
  'catchError',
  'tap',
  'startWith',
  'scan',
  'first',
  'forkJoin',
  'defer',
] as const;
const RXJS_APP = `export { ${RXJS_APP_OPERATORS.join(', ')} } from 'rxjs';`;

// What a user's build does (element-size.ts too): ESM, minified, tree-shaken, packages resolved the
// way the target's bundler resolves them (for browsers rxjs's `esm5` build, as
// Vite and webpack pick it).
export async function bundle(
  root: string,
  contents: string,
  target: Target,
  external: readonly string[],
  mode: Mode = 'production',
  plugins: readonly Plugin[] = [],
): Promise<Bundle> {
  const result = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'app.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: target === 'node' ? 'node' : 'browser',
    target: 'es2020',
    // Set whatever the platform: esbuild defines it for browsers only, and only when minifying.
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    external: [...external],
    // The caller's plugins first: one that replaces a module of lib/ wins over the dev flag's load.
    plugins: [pureDependencies, ...plugins, devFlag],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return {
    minified: code.length,
    gzipped: gzipSync(code, { level: 9 }).length,
    code: new TextDecoder().decode(code),
    inputs: inputsOf(result.metafile),
  };
}

async function ownAndTotal(
  root: string,
  contents: string,
  target: Target,
  mode: Mode = 'production',
): Promise<OwnAndTotal> {
  return {
    own: await bundle(root, contents, target, EXTERNAL, mode),
    total: await bundle(root, contents, target, [], mode),
  };
}

/** Deterministic: the same sources and lockfile give the same bytes. */
export async function measureSize(root: string): Promise<SizeFigures> {
  return {
    client: {
      browser: await ownAndTotal(root, CLIENT_ONLY, 'browser'),
      node: await ownAndTotal(root, CLIENT_ONLY, 'node'),
    },
    clientDevelopment: await ownAndTotal(root, CLIENT_ONLY, 'browser', 'development'),
    barrel: {
      browser: await ownAndTotal(root, BARREL, 'browser'),
      node: await ownAndTotal(root, BARREL, 'node'),
    },
    rxjsApp: {
      alone: await bundle(root, RXJS_APP, 'browser', []),
      withClient: await bundle(root, `${RXJS_APP}\n${CLIENT_ONLY}`, 'browser', []),
    },
  };
}
