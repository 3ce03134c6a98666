/* global AbortSignal */
// Installs the packed tarball into consumer projects, as a user's project gets
// it, and runs a small real suite in each (run after `npm run build`):
// - Jest 29 and Jest 30, each with the ts-jest preset and with Babel, tests
//   written as ESM (TypeScript) and as CJS (require), in the node and jsdom
//   environments: no custom environment, no flag (scripts/consumers/jest/);
// - Vitest, node and jsdom environments (scripts/consumers/vite/);
// - in both, the testing page's word on fake timers (docs/testing.md) (fake-timers*.test.ts): under `jest.useFakeTimers()`
//   and `vi.useFakeTimers()` a `delay` fault waits on a real timer and `clock.settle` settles a
//   retried consume;
// - Node 20, 22 and 24 scripts with tabSync() and reloadSafe() and no
//   dispose(), which must end by themselves (scripts/consumers/node/);
// - docs/testing.md's vite.config.ts plugin under Vite: it must answer, survive a
//   config edit (Vite's restart) and then answer from the edited config;
// - the Next.js recipe (docs/recipes/nextjs/) built with `next build`, served by
//   `next start`, against the recipe's reference backend (scripts/check-nextjs.mjs);
// - the Vue and Angular recipes built by their own compilers (vue-tsc and
//   `vite build`; `ng build` with strictTemplates), each with a negative
//   template check, and rendered in headless Chromium (scripts/check-frameworks.mjs).
// A run that does not end within its time limit fails (an open handle).
// One install per project; the tarball is reused; npm's cache serves repeats.
//
//   node scripts/check-consumers.mjs [tarball] [--only=jest|vitest|node|vite|nextjs|vue|angular]
//   (packs the repository when no tarball is given; --only runs one part)
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkNextjs } from './check-nextjs.mjs';
import { pack, run } from './consumer-tools.mjs';
import { checkAngular, checkVue } from './check-frameworks.mjs';

const root = resolve(import.meta.dirname, '..');
const fixtures = join(import.meta.dirname, 'consumers');
// Outside the repository, so nothing resolves from its node_modules by accident.
const work = join(tmpdir(), 'unified-billing-consumers');
const NODE_VERSIONS = ['20', '22', '24'];
const JEST_LIMIT_MS = 180_000;
const SCRIPT_LIMIT_MS = 20_000;
const VITE_LIMIT_MS = 60_000;
// The playground's port (`npm start`): the Vite plugin of docs/testing.md must not take it.
const PLAYGROUND_PORT = 8787;
const failures = [];
const started = Date.now();

function step(title) {
  console.log(`\n== ${title}`);
}

function report(what, result, extraProblem) {
  const problem = result.timedOut
    ? `did not end within its limit (something keeps the process alive)`
    : result.code !== 0
      ? `exited ${result.code}`
      : extraProblem;
  console.log(`${problem === undefined ? 'ok' : 'FAIL'}: ${what}${problem === undefined ? '' : `: ${problem}`}`);
  if (problem !== undefined) {
    console.log(result.output.trim().split('\n').slice(-60).join('\n'));
    failures.push(`${what}: ${problem}`);
  }
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const given = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const runs = (part) => only === undefined || only === part;
const tarball = given ? resolve(given) : pack(work);
console.log(`tarball: ${tarball}`);

const shared = { 'unified-billing': `file:${tarball}`, rxjs: '^7.8.0' };
const jestProject = (major) => ({
  dir: `jest${major}`,
  fixture: 'jest',
  dependencies: {
    ...shared,
    jest: `^${major}`,
    'jest-environment-jsdom': `^${major}`,
    'babel-jest': `^${major}`,
    '@types/jest': `^${major}`,
    'ts-jest': '^29.4.0',
    typescript: '~5.9.0',
    '@babel/core': '^7.28.0',
    '@babel/preset-env': '^7.28.0',
    '@babel/preset-typescript': '^7.27.0',
  },
});
const projects = [
  ...(runs('jest') ? [jestProject(29), jestProject(30)] : []),
  ...(runs('vitest') || runs('node') || runs('vite')
    ? [
        {
          dir: 'vite',
          fixture: 'vite',
          type: 'module',
          dependencies: { ...shared, vite: '^7.0.0', vitest: '^3.2.0', jsdom: '^26.0.0' },
        },
      ]
    : []),
  // The recipe's own files, as a user copies them into a new app (the current major of each).
  ...(runs('nextjs')
    ? [
        {
          dir: 'nextjs',
          type: null,
          source: join(root, 'docs/recipes/nextjs'),
          dependencies: {
            ...shared,
            next: '^16.0.0',
            react: '^19.0.0',
            'react-dom': '^19.0.0',
            typescript: '~5.9.0',
            '@types/react': '^19.0.0',
            '@types/react-dom': '^19.0.0',
            '@types/node': '^20.0.0',
          },
        },
      ]
    : []),
  // The versions the README's platforms name: Vue 3.5 with vue-tsc 3 and Vite 7,
  // and the newest Angular that installs under Node 20.
  ...(runs('vue')
    ? [
        {
          dir: 'vue',
          fixture: 'vue',
          type: 'module',
          dependencies: {
            ...shared,
            vue: '~3.5.0',
            vite: '^7.0.0',
            '@vitejs/plugin-vue': '^6.0.0',
            'vue-tsc': '^3.0.0',
            typescript: '~5.9.0',
          },
        },
      ]
    : []),
  ...(runs('angular')
    ? [
        {
          dir: 'angular',
          fixture: 'angular',
          type: 'module',
          dependencies: {
            ...shared,
            '@angular/cli': '~21.2.26',
            '@angular/build': '~21.2.26',
            '@angular/core': '~21.2.26',
            '@angular/common': '~21.2.26',
            '@angular/compiler': '~21.2.26',
            '@angular/compiler-cli': '~21.2.26',
            '@angular/platform-browser': '~21.2.26',
            typescript: '~5.9.0',
            tslib: '^2.8.0',
          },
        },
      ]
    : []),
];

step('install the tarball into each consumer project (in parallel), and Node 20, 22, 24');
const installs = projects.map((project) => {
  const dir = join(work, project.dir);
  cpSync(project.source ?? join(fixtures, project.fixture), dir, { recursive: true });
  if (project.fixture === 'vite') cpSync(join(fixtures, 'node'), dir, { recursive: true });
  // The fake-timer cases both runners share (scripts/consumers/shared/fake-timer-cases.ts).
  if (project.fixture === 'jest' || project.fixture === 'vite')
    cpSync(join(fixtures, 'shared'), dir, { recursive: true });
  // `type: null` writes none, as create-next-app does (Next rejects ESM sources under "commonjs").
  const type = project.type === null ? {} : { type: project.type ?? 'commonjs' };
  const manifest = { name: `consumer-${project.dir}`, private: true, ...type };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, devDependencies: project.dependencies }));
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline'];
  return run('npm', args, { cwd: dir, limitMs: 600_000 }).then((result) => ({ project, result }));
});
// The registry serves Node itself as a package; its binary then runs the scripts directly.
const nodes = (runs('node') ? NODE_VERSIONS : []).map((version) =>
  run('npx', ['-y', `node@${version}`, '-p', 'process.execPath'], { cwd: work, limitMs: 600_000 }).then((result) => ({
    version,
    result,
    path: result.output.trim().split('\n').pop(),
  })),
);
for (const { project, result } of await Promise.all(installs)) report(`npm install in ${project.dir}`, result);
for (const { version, result } of await Promise.all(nodes)) report(`Node ${version} from the registry`, result);
if (failures.length > 0) finish();

const bin = (project, name) => join(work, project, 'node_modules/.bin', name);
// What a leaked handle looks like when Jest ran the file in a worker rather than in band.
const LEAK = /failed to exit gracefully|did not exit one second/;

for (const major of runs('jest') ? [29, 30] : []) {
  for (const setup of ['ts-jest', 'babel']) {
    step(`Jest ${major} with ${setup}: ESM and CJS tests, node and jsdom environments`);
    const result = await run(bin(`jest${major}`, 'jest'), ['-c', `jest.${setup}.config.js`], {
      cwd: join(work, `jest${major}`),
      limitMs: JEST_LIMIT_MS,
    });
    const summary = /^Tests:.*$/m.exec(result.output)?.[0];
    console.log(summary ?? '(no summary)');
    report(`Jest ${major} (${setup})`, result, LEAK.test(result.output) ? 'a test left a handle open' : undefined);
  }
}

if (runs('vitest')) {
  step('Vitest: node and jsdom environments');
  const result = await run(bin('vite', 'vitest'), ['run'], { cwd: join(work, 'vite'), limitMs: JEST_LIMIT_MS });
  console.log(/^\s*Tests\s.*$/m.exec(result.output)?.[0]?.trim() ?? '(no summary)');
  report('Vitest', result);
}

if (runs('node'))
  step(`Node ${NODE_VERSIONS.join(', ')} scripts end by themselves (limit ${SCRIPT_LIMIT_MS / 1000} s each)`);
for (const node of await Promise.all(nodes)) {
  for (const script of ['tab-sync.mjs', 'reload-safe.cjs']) {
    const result = await run(node.path, [script], { cwd: join(work, 'vite'), limitMs: SCRIPT_LIMIT_MS });
    const said = result.output.trim().split('\n').pop();
    report(`Node ${node.version}: ${script}`, result, /charged once/.test(said) ? undefined : `printed ${said}`);
  }
}

if (runs('vite')) {
  step("docs/testing.md's vite.config.ts plugin across a config edit (Vite's restart)");
  await checkVitePlugin(join(work, 'vite'));
}

if (runs('nextjs')) {
  step('the Next.js recipe: next build, next start, the quota in the server HTML, a consume from Chromium');
  await checkNextjs(join(work, 'nextjs'), { run, report, failures });
}

// One line per assertion, as the Next.js check prints them.
const check = (ok, what, detail) => {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
  if (!ok) {
    failures.push(`not true that ${what}`);
    if (detail) console.log(detail.trim().split('\n').slice(-60).join('\n'));
  }
  return ok;
};

if (runs('vue')) {
  step('the Vue recipes: vue-tsc, a template that must fail it, vite build, rendered in Chromium');
  await checkVue(join(work, 'vue'), { run, report, check });
}

if (runs('angular')) {
  step('the Angular recipes: ng build (strictTemplates), a template that must fail it, rendered in Chromium');
  await checkAngular(join(work, 'angular'), { run, report, check });
}

finish();

function finish() {
  const seconds = Math.round((Date.now() - started) / 1000);
  if (failures.length > 0) {
    console.error(`\ncheck-consumers: FAILED after ${seconds} s\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`\ncheck-consumers: every consumer project passed (${seconds} s)`);
  process.exit(0);
}

/** The `// vite.config.ts` block of docs/testing.md, run as a user pastes it. */
function readmeViteConfig() {
  const block = /```ts\n(\/\/ vite\.config\.ts\n[\s\S]*?)```/.exec(
    readFileSync(join(root, 'docs', 'testing.md'), 'utf8'),
  );
  if (block === null) throw new Error('docs/testing.md has no ```ts block starting with // vite.config.ts');
  return block[1];
}

async function balanceAt(port) {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/ai/v1/credit/getBalance`, {
      headers: { Authorization: 'Bearer dev-token' },
      signal: AbortSignal.timeout(2000),
    });
    return (await answer.json()).data?.balance;
  } catch {
    return undefined;
  }
}

async function until(predicate, limitMs) {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await predicate()) return true;
    await new Promise((wake) => setTimeout(wake, 250));
  }
  return false;
}

async function checkVitePlugin(dir) {
  const config = readmeViteConfig();
  const balance = /creditsBalance: (\d+)/.exec(config)?.[1];
  // `port: 8788` or a default `port = 8788`.
  const port = Number(/\bport(?::| =) (\d+)/.exec(config)?.[1]);
  if (balance === undefined || !Number.isInteger(port)) {
    failures.push("docs/testing.md's vite.config.ts names no port or no creditsBalance to edit");
    return;
  }
  if (port === PLAYGROUND_PORT) failures.push(`Vite plugin: its port ${port} is the playground's (npm start)`);
  console.log(`${port === PLAYGROUND_PORT ? 'FAIL' : 'ok'}: the plugin's port ${port} is not npm start's`);
  if ((await balanceAt(port)) !== undefined) {
    failures.push(`port ${port} already answers before Vite starts: stop that process first`);
    return;
  }
  writeFileSync(join(dir, 'vite.config.ts'), config);
  const vite = spawn(bin('vite', 'vite'), ['--port', '0', '--clearScreen', 'false'], { cwd: dir, detached: true });
  let log = '';
  vite.stdout.on('data', (chunk) => (log += chunk));
  vite.stderr.on('data', (chunk) => (log += chunk));
  const check = (ok, what) => {
    console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
    if (!ok) failures.push(`Vite plugin: not true that ${what}`);
    return ok;
  };
  try {
    const first = await until(async () => (await balanceAt(port)) === Number(balance), VITE_LIMIT_MS);
    if (!check(first, `the backend answers on ${port} once Vite is up`)) return;
    // Two edits in a row: each restarts Vite, and the edited users must be what answers.
    for (const edited of [Number(balance) + 10, Number(balance) + 20]) {
      const source = readFileSync(join(dir, 'vite.config.ts'), 'utf8');
      // Saved whole, as editors that save safely do: an in-place write lets Vite's
      // watcher read the file while it is still empty ("config must export or
      // return an object"), a race of the write and not of the plugin.
      writeFileSync(
        join(dir, 'vite.config.ts.tmp'),
        source.replace(/creditsBalance: \d+/, `creditsBalance: ${edited}`),
      );
      renameSync(join(dir, 'vite.config.ts.tmp'), join(dir, 'vite.config.ts'));
      const answered = await until(async () => (await balanceAt(port)) === edited, VITE_LIMIT_MS);
      check(answered, `after a config edit, the restarted backend answers with the edited balance ${edited}`);
    }
    check(!/restart failed|EADDRINUSE/.test(log), 'Vite logs no failed restart and no EADDRINUSE');
  } finally {
    process.kill(-vite.pid, 'SIGTERM');
    await until(async () => vite.exitCode !== null || vite.signalCode !== null, 10_000);
    if (failures.some((failure) => failure.startsWith('Vite plugin'))) console.log(log.trim());
  }
}
