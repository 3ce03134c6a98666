// size-limit's configuration (`npm run size`, after `npm run build`): each entry point of dist/ as an
// app's production build bundles it, in brotli and in gzip, against the budgets of
// bench/size/budgets.ts, where the entries and their figures are written. size-limit bundles with
// esbuild, minified, and leaves the package's peers (react, rxjs, vue) out unless a check takes one back.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Check, SizeLimitConfig } from 'size-limit';
import { ENTRY_BUDGETS, type EntryBudget } from './bench/size/budgets';

const root = __dirname;
const kB = (bytes: number) => `${bytes / 1000} kB`;

// An app's production build: its bundler replaces process.env.NODE_ENV (dist/ leaves it for the app,
// scripts/dev-flag.cjs), so the development messages go as dead code, as they do for users.
function productionBuild(bundled: readonly string[]): Check['modifyEsbuildConfig'] {
  return <T extends object>(config?: T): T => {
    const esbuild = (config ?? {}) as T & { external?: string[]; define?: Record<string, string> };
    return {
      ...esbuild,
      external: (esbuild.external ?? []).filter((name) => !bundled.includes(name)),
      define: { ...esbuild.define, 'process.env.NODE_ENV': '"production"' },
    };
  };
}

function checks(entry: EntryBudget): Check[] {
  // size-limit's own message for a missing file is an esbuild error about "undefined".
  if (!existsSync(join(root, entry.path)))
    throw new Error(`size-limit measures dist/: no ${entry.path}, run \`npm run build\``);
  const common = {
    path: entry.path,
    import: entry.import,
    ...(entry.ignore ? { ignore: [...entry.ignore] } : {}),
    modifyEsbuildConfig: productionBuild(entry.bundled ?? []),
  };
  return [
    { ...common, name: `${entry.name} (brotli)`, limit: kB(entry.brotli) },
    { ...common, name: `${entry.name} (gzip)`, limit: kB(entry.gzip), gzip: true },
  ];
}

const entries: readonly EntryBudget[] = Object.values(ENTRY_BUDGETS);
const config: SizeLimitConfig = entries
  .filter((entry) => entry.source === undefined || existsSync(join(root, entry.source)))
  .flatMap(checks);

export default config;
