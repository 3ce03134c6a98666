// The one expansion of `__DEV__` (lib/shared/dev-flag.d.ts), used by everything that bundles lib/
// from source: the build, the playground, the benchmarks and the specs' own bundles (Jest runs
// lib/ unbundled: spec/setup/dev-flag.ts). Each use becomes the expression bundlers fold: an app's
// production build replaces process.env.NODE_ENV, the test is false and the long text goes as dead
// code; HAS_ENV keeps the lookup from running where nothing defines `process`. A build that itself
// replaces process.env.NODE_ENV with a string (the benchmarks, some specs) leaves no lookup to guard,
// so its sites test the string alone: in dist/ (one file) the app's minifier drops the guard's
// HAS_ENV from a folded test, but across the modules of a build from source esbuild keeps each
// `(HAS_ENV, "short")`, bytes no app ships. CommonJS, so that the .mjs scripts and the specs (which
// Jest runs as CommonJS) share it.
'use strict';
const { readFile } = require('node:fs/promises');
const { join } = require('node:path');

const LIB = join(__dirname, '..', 'lib');
const DEV_MODULE = join(LIB, 'shared', 'dev.ts');
const LIB_FILE = new RegExp(`^${LIB.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}[\\\\/].*\\.tsx?$`);

/**
 * `source` with each `__DEV__` expanded, and the import that needs (last: line numbers stay);
 * `replaced`: the build replaces process.env.NODE_ENV with a string, so nothing reads it at run time.
 */
function expandDevFlag(source, { replaced = false } = {}) {
  if (!source.includes('__DEV__')) return source;
  if (replaced) return source.replace(/\b__DEV__\b/g, "(process.env.NODE_ENV !== 'production')");
  const expanded = source.replace(/\b__DEV__\b/g, "(__HAS_ENV__ && process.env.NODE_ENV !== 'production')");
  return `${expanded}\nimport { HAS_ENV as __HAS_ENV__ } from ${JSON.stringify(DEV_MODULE)};\n`;
}

/** Whether esbuild's `define` sets process.env.NODE_ENV to a string literal. */
function replacesNodeEnv(define) {
  try {
    return typeof JSON.parse(define?.['process.env.NODE_ENV'] ?? '') === 'string';
  } catch {
    return false;
  }
}

/**
 * The esbuild plugin: lib/'s TypeScript files, expanded as they load. A script bundled with it (the
 * playground, the bench) imports this file from where it is, never a copy: it finds lib/ from here.
 */
const devFlag = {
  name: 'dev-flag',
  setup(build) {
    const replaced = replacesNodeEnv(build.initialOptions.define);
    build.onResolve({ filter: /dev-flag\.cjs$/ }, () => ({ path: __filename, external: true }));
    build.onLoad({ filter: LIB_FILE }, async (args) => ({
      contents: expandDevFlag(await readFile(args.path, 'utf8'), { replaced }),
      loader: args.path.endsWith('x') ? 'tsx' : 'ts',
    }));
  },
};

module.exports = { expandDevFlag, devFlag };
