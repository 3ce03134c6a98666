// The one expansion of `__DEV__` (lib/shared/dev-flag.d.ts), used by everything that bundles lib/
// from source: the build, the playground, the benchmarks and the specs' own bundles (Jest runs
// lib/ unbundled: spec/setup/dev-flag.ts). Each use becomes the expression bundlers fold: an app's
// production build replaces process.env.NODE_ENV, the test is false and the long text goes as dead
// code; HAS_ENV keeps the lookup from running where nothing defines `process`. CommonJS, so that
// the .mjs scripts and the specs (which Jest runs as CommonJS) share it.
'use strict';
const { readFile } = require('node:fs/promises');
const { join } = require('node:path');

const LIB = join(__dirname, '..', 'lib');
const DEV_MODULE = join(LIB, 'shared', 'dev.ts');
const LIB_FILE = new RegExp(`^${LIB.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}[\\\\/].*\\.tsx?$`);

/** `source` with each `__DEV__` expanded, and the import that needs (last: line numbers stay). */
function expandDevFlag(source) {
  if (!source.includes('__DEV__')) return source;
  const expanded = source.replace(/\b__DEV__\b/g, "(__HAS_ENV__ && process.env.NODE_ENV !== 'production')");
  return `${expanded}\nimport { HAS_ENV as __HAS_ENV__ } from ${JSON.stringify(DEV_MODULE)};\n`;
}

/**
 * The esbuild plugin: lib/'s TypeScript files, expanded as they load. A script bundled with it (the
 * playground, the bench) imports this file from where it is, never a copy: it finds lib/ from here.
 */
const devFlag = {
  name: 'dev-flag',
  setup(build) {
    build.onResolve({ filter: /dev-flag\.cjs$/ }, () => ({ path: __filename, external: true }));
    build.onLoad({ filter: LIB_FILE }, async (args) => ({
      contents: expandDevFlag(await readFile(args.path, 'utf8')),
      loader: args.path.endsWith('x') ? 'tsx' : 'ts',
    }));
  },
};

module.exports = { expandDevFlag, devFlag };
