/* global module, require, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS config, as React Native apps write it */
// A React Native app's metro.config.js, without React Native itself (nothing here can run
// its native modules): React Native's defaults (@react-native/metro-config: the
// `react-native` condition, its main fields, its Babel transformer and polyfills), with
// shims.js run before the app where React Native runs InitializeCore. A Node built-in
// module that anything requires is listed in node-built-ins.txt (and bundled as empty),
// so the check names it instead of stopping at Metro's first "Unable to resolve".
const { appendFileSync } = require('node:fs');
const { builtinModules } = require('node:module');
const { join } = require('node:path');
const { getDefaultConfig, mergeConfig } = require('@react-native/metro-config');

const builtins = new Set(builtinModules);
module.exports = mergeConfig(getDefaultConfig(__dirname), {
  // No cache outside the project, no watchman: one build on a fresh machine.
  cacheStores: [],
  fileMapCacheDirectory: join(__dirname, '.metro-file-map'),
  resolver: {
    useWatchman: false,
    resolveRequest(context, moduleName, platform) {
      if (moduleName.startsWith('node:') || builtins.has(moduleName)) {
        appendFileSync(join(__dirname, 'node-built-ins.txt'), `${moduleName} (from ${context.originModulePath})\n`);
        return { type: 'empty' };
      }
      return context.resolveRequest(context, moduleName, platform);
    },
  },
  serializer: { getModulesRunBeforeMainModule: () => [require.resolve('./shims.js')] },
});
