// React Native, checked on the packed tarball as an app gets it (run after `npm run build`):
// - the Hermes VM: scripts/consumers/react-native/hermes/app.js (the quick start, a
//   credit consume, a consume that needs a random id, dispose) bundled by Metro with
//   React Native's defaults (@react-native/metro-config: the `react-native` condition,
//   @react-native/babel-preset, which lowers classes and async for the old VM), and run
//   by the `hermes` binary of hermes-engine-cli. The bundle must hold no Node-only module
//   (no Node built-in, no cross-fetch, no uuid); the app prints one JSON line, asserted
//   here. Hermes has no network: the app passes a fake fetch of the wire format;
//   shims.js adds only what React Native installs and Hermes lacks, each named;
// - @testing-library/react-native under the React Native Jest preset
//   (@react-native/jest-preset, no transformIgnorePatterns entry for the package or its
//   dependencies): scripts/consumers/react-native/rntl/ renders BillingProvider and the
//   hooks, over a client from the shipped React Native recipe, against the reference
//   backend, and presses Export.
// Installs what it needs into a temporary folder; prints how long each part took.
//
//   node scripts/check-react-native.mjs [tarball] [--only=hermes|rntl]
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pack, run } from './consumer-tools.mjs';

const fixtures = join(import.meta.dirname, 'consumers/react-native');
// Outside the repository, so nothing resolves from its node_modules by accident.
const work = join(tmpdir(), 'unified-billing-react-native');
const REACT_NATIVE = '0.86.3';
const INSTALL_LIMIT_MS = 600_000;
const METRO_LIMIT_MS = 300_000;
const HERMES_LIMIT_MS = 30_000;
const JEST_LIMIT_MS = 300_000;
// Node-only packages the issue found in the React Native bundle.
const NODE_ONLY_PACKAGES = ['cross-fetch', 'node-fetch', 'uuid'];
const failures = [];
const started = Date.now();
const timings = [];

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
function step(title) {
  console.log(`\n== ${title}`);
}
async function timed(what, task) {
  const start = Date.now();
  try {
    return await task();
  } finally {
    const took = Date.now() - start;
    timings.push([what, took]);
    console.log(`(${what}: ${seconds(took)})`);
  }
}
/** One line per assertion. */
function check(ok, what, detail) {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
  if (!ok) {
    failures.push(what);
    const lines = String(detail ?? '')
      .trim()
      .split('\n')
      .slice(-40);
    if (detail !== undefined) console.log(lines.map((line) => line.slice(0, 400)).join('\n'));
  }
  return ok;
}
function report(what, result) {
  const problem = result.timedOut
    ? 'did not end within its limit (something keeps the process alive)'
    : result.code !== 0
      ? `exited ${result.code}`
      : undefined;
  return check(problem === undefined, problem === undefined ? what : `${what}: ${problem}`, result.output);
}
const same = (actual, expected) => JSON.stringify(actual) === JSON.stringify(expected);
const shown = (value) => JSON.stringify(value);
// An error as the app described it, without its stack.
const briefly = (error) => shown(error && { code: error.code, message: error.message });

// A previous run's projects (React Native's is large) go first.
await timed('clean', async () => rmSync(work, { recursive: true, force: true }));
mkdirSync(work, { recursive: true });
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const given = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const runs = (part) => only === undefined || only === part;
const tarball = given ? resolve(given) : await timed('pack', async () => pack(work));
console.log(`tarball: ${tarball}`);

const shared = { 'unified-billing': `file:${tarball}`, rxjs: '^7.8.0' };
const projects = [
  ...(runs('hermes')
    ? [
        {
          dir: 'hermes',
          dependencies: {
            ...shared,
            'hermes-engine-cli': '0.12.0',
            // What React Native 0.86 bundles with.
            metro: '^0.84.3',
            '@react-native/metro-config': REACT_NATIVE,
            '@react-native/babel-preset': REACT_NATIVE,
            '@babel/core': '^7.28.0',
          },
        },
      ]
    : []),
  // RNTL 13: its 14 needs Node 22, and React Native 0.86 runs on Node 20. The React that
  // React Native 0.86's renderer is built against (19.2).
  ...(runs('rntl')
    ? [
        {
          dir: 'rntl',
          dependencies: {
            ...shared,
            'react-native': REACT_NATIVE,
            '@react-native/jest-preset': REACT_NATIVE,
            '@react-native/babel-preset': REACT_NATIVE,
            '@testing-library/react-native': '^13.3.3',
            react: '~19.2.3',
            'react-test-renderer': '~19.2.3',
            jest: '^29.7.0',
            'babel-jest': '^29.7.0',
            '@babel/core': '^7.28.0',
          },
        },
      ]
    : []),
];

step('install the tarball into the React Native consumer projects (in parallel)');
await timed('install', () =>
  Promise.all(
    projects.map(async (project) => {
      const dir = join(work, project.dir);
      cpSync(join(fixtures, project.dir), dir, { recursive: true });
      const manifest = { name: `consumer-${project.dir}`, private: true, devDependencies: project.dependencies };
      writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
      const args = ['install', '--no-audit', '--no-fund', '--prefer-offline'];
      report(`npm install in ${project.dir}`, await run('npm', args, { cwd: dir, limitMs: INSTALL_LIMIT_MS }));
    }),
  ),
);
if (failures.length > 0) finish();

if (runs('hermes')) await checkHermes(join(work, 'hermes'));
if (runs('rntl')) await checkTestingLibrary(join(work, 'rntl'));
finish();

function finish() {
  console.log(`\ncheck-react-native timings: ${timings.map(([what, ms]) => `${what} ${seconds(ms)}`).join(', ')}`);
  const total = seconds(Date.now() - started);
  if (failures.length > 0) {
    console.error(`\ncheck-react-native: FAILED after ${total}\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`\ncheck-react-native: every check passed (${total})`);
  process.exit(0);
}

async function checkHermes(dir) {
  step('Hermes: the quick start bundled by Metro with React Native 0.86 defaults, run by hermes-engine-cli');
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/unified-billing/package.json'), 'utf8'));
  check(
    Object.keys(manifest.exports?.['.'] ?? {}).includes('react-native'),
    `the package's exports map has a react-native condition (it has ${Object.keys(manifest.exports?.['.'] ?? {}).join(', ')})`,
  );

  // A development build, as `npx react-native start` serves it: Metro resolves (the
  // `react-native` condition), transforms each module with React Native's Babel preset
  // (classes and async lowered, as the old VM needs) and writes its module runtime around them.
  const args = ['build', 'app.js', '--out', 'bundle.js', '--platform', 'android', '--dev', 'true', '--minify', 'false'];
  const built = await timed('Hermes: Metro bundle', () =>
    run(join(dir, 'node_modules/.bin/metro'), args, { cwd: dir, limitMs: METRO_LIMIT_MS }),
  );
  if (!report('metro build', built)) return;
  const code = readFileSync(join(dir, 'bundle.js'), 'utf8');
  // A development bundle names each module where its __d(factory, id, dependencies, "name") ends.
  const modules = [...code.matchAll(/^\},\d+,\[[\d,]*\],"([^"]+)"\);$/gm)].map((match) => match[1]);
  const own = modules.filter((path) => path.includes('node_modules/unified-billing/'));
  console.log(`${modules.length} modules in the bundle; unified-billing's: ${own.join(', ')}`);
  const builtins = existsSync(join(dir, 'node-built-ins.txt'))
    ? readFileSync(join(dir, 'node-built-ins.txt'), 'utf8')
    : '';
  check(builtins === '', 'the bundle requires no Node built-in module', builtins);
  const nodeOnly = NODE_ONLY_PACKAGES.filter((name) => modules.some((path) => path.includes(`node_modules/${name}/`)));
  check(nodeOnly.length === 0, `the bundle holds no Node-only package (found: ${nodeOnly.join(', ') || 'none'})`);
  check(!/require\(["']node:/.test(code), "the bundle has no require('node:...')");

  const hermes = join(
    dir,
    'node_modules/hermes-engine-cli',
    process.platform === 'darwin' ? 'osx-bin' : 'linux64-bin',
    'hermes',
  );
  // -Xmicrotask-queue: React Native runs Hermes with its microtask queue (Promise jobs
  // before timers); -w: the compiler's warnings are about globals the code tests first.
  const result = await timed('Hermes: run', () =>
    run(hermes, ['-w', '-Xmicrotask-queue', 'bundle.js'], { cwd: dir, limitMs: HERMES_LIMIT_MS }),
  );
  const line = /^HERMES_RESULT (.*)$/m.exec(result.output)?.[1];
  if (!report('hermes runs the bundle and ends by itself after dispose()', result) || line === undefined) {
    check(line !== undefined, 'the app printed its result', result.output);
    return;
  }
  const app = JSON.parse(line);
  const withoutUrl = app.withoutUrl ?? {};
  check(
    withoutUrl.billingError === true && /\bURL\b/.test(withoutUrl.message) && !/baseUrl/.test(withoutUrl.message),
    `without URL, createClient throws a BillingError that names URL (not baseUrl): ${shown(withoutUrl.message ?? withoutUrl)}`,
  );
  const threw = app.ok
    ? ''
    : ` (it threw${app.error.billingError ? ` BillingError ${app.error.code}:` : ''} ${app.error.message})`;
  if (!check(app.ok, `the app ran to its end${threw}`, app.error?.stack)) return;
  const quota = (usage) => usage && [usage.freeRemaining, usage.freeTotal, usage.creditsPerUse, usage.creditsBalance];
  check(same(quota(app.usage), [1, 3, 10, 50]), `getUsage() gives the backend's quota: ${shown(app.usage)}`);
  check(app.usage.inFreePeriod === false, 'no free period before the first consume');
  check(same(app.check, { canProceed: true, reason: 'free_count' }), `check() before: ${shown(app.check)}`);
  check(
    same(app.consume, { freeRemaining: 0, isCredit: false, isBlacklisted: false }),
    `consume({ externalId }) takes the free use: ${shown(app.consume)}`,
  );
  check(app.checkAfterConsume?.reason === 'free_period', `check() after: ${shown(app.checkAfterConsume)}`);
  check(same(quota(app.usageAfterRestart), [0, 3, 10, 50]), `a new client reads ${shown(app.usageAfterRestart)}`);
  check(
    same(app.checkAfterRestart, { canProceed: true, reason: 'credits' }),
    `then check(): ${shown(app.checkAfterRestart)}`,
  );
  check(app.creditConsume?.isCredit === true, `a credit consume: ${shown(app.creditConsume)}`);
  check(
    app.usageAfterCredit?.creditsBalance === 40,
    `the cached balance after it: ${app.usageAfterCredit?.creditsBalance}`,
  );
  check(
    same(app.backend, { freeRemaining: 0, balance: 40 }),
    `the backend charged one free use and 10 credits: ${shown(app.backend)}`,
  );
  check(
    app.requests.filter((request) => request.startsWith('POST')).length === 2,
    `two POSTs, one per charged consume: ${app.requests.join(', ')}`,
  );
  check(
    app.checkAfterDispose?.code === 'disposed',
    `check() after dispose() throws 'disposed': ${briefly(app.checkAfterDispose)}`,
  );
  const randomId = app.randomIdConsume ?? {};
  check(
    randomId.billingError === true && /react-native-get-random-values/.test(randomId.message) && randomId.sent === 0,
    'without crypto, a consume with no externalId rejects with a BillingError naming react-native-get-random-values, and sends nothing',
    `${briefly(randomId)}, requests sent: ${randomId.sent}`,
  );
  check(
    app.globalFetchCalls === 0,
    `the global fetch was never called (the app passed its own): ${app.globalFetchCalls}`,
  );
  check(app.unhandled.length === 0, 'no unhandled rejection', app.unhandled.join('\n'));
  const errors = app.logged.filter((entry) => entry.startsWith('error:'));
  check(errors.length === 0, 'nothing logged as an error', errors.join('\n'));
  const warnings = app.logged.filter((entry) => entry.startsWith('warn:'));
  for (const warning of warnings) console.log(`  logged ${warning}`);
  check(
    warnings.length === 1 && /AppState/.test(warnings[0]),
    `refetchOn({ focus, online }) without window events: one development warning that points to AppState (got ${warnings.length})`,
  );
}

/**
 * The React Native recipe as the package ships it, made what its comment says an app
 * writes: its local declaration of AppState deleted and the import it names put instead.
 */
function recipeAsAnAppWritesIt(dir) {
  const source = readFileSync(join(dir, 'node_modules/unified-billing/docs/recipes/react-native.ts'), 'utf8');
  const imported = /write instead:\n\/\/\n\/\/ {3}(import .* from 'react-native';)$/m.exec(source)?.[1];
  const declared = /^type AppStateStatus = .*\ndeclare const AppState: \{\n[\s\S]*?\n\};\n/m;
  if (imported === undefined || !declared.test(source)) return undefined;
  return source.replace(declared, `${imported}\n`);
}

async function checkTestingLibrary(dir) {
  step('@testing-library/react-native under @react-native/jest-preset, against the reference backend');
  const recipe = recipeAsAnAppWritesIt(dir);
  const found = check(
    recipe !== undefined,
    "docs/recipes/react-native.ts declares AppState locally and names the import an app writes instead (the screen's client comes from it)",
  );
  if (!found) return;
  writeFileSync(join(dir, 'recipe.ts'), recipe);
  const config = createRequire(join(dir, 'package.json'))('./jest.config.js');
  check(
    same(Object.keys(config), ['preset']),
    `the Jest config is the preset alone, no transformIgnorePatterns entry: ${shown(config)}`,
  );
  // The transform cache in the project's folder, removed with it.
  const args = ['--ci', '--cacheDirectory', join(dir, '.jest-cache')];
  const result = await timed('RNTL: jest', () =>
    run(join(dir, 'node_modules/.bin/jest'), args, { cwd: dir, limitMs: JEST_LIMIT_MS }),
  );
  console.log(/^Tests:.*$/m.exec(result.output)?.[0] ?? '(no summary)');
  if (report('jest with the React Native preset', result)) {
    check(
      !/failed to exit gracefully|did not exit one second/.test(result.output),
      'jest ends with no open handle',
      result.output,
    );
  }
}
