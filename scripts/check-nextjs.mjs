/* global AbortSignal */
// The Next.js recipe (docs/recipes/nextjs/, the files nextjs.md shows whole) as a
// user builds it from the packed tarball, run by check-consumers.mjs once the
// project is installed: the recipe's own billing-backend.mjs (on a free port)
// stands in for the billing API, `next build` compiles and type-checks the
// recipe, `next start` serves it on a free port; the server HTML must show the
// quota, and a click in headless Chromium must charge the reference backend,
// with no error in the browser console (a hydration mismatch is one).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const BUILD_LIMIT_MS = 600_000;
const START_LIMIT_MS = 60_000;
// Next's telemetry would call home; the recipe loads no Google font, so nothing else does.
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1' };

/** A port free right now (the OS picks it), for `next start`, which needs a number. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts a long-running command in its own process group; `stop()` ends the group. */
function serve(command, args, { cwd, env }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

async function until(predicate, limitMs) {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await predicate()) return true;
    await new Promise((wake) => setTimeout(wake, 250));
  }
  return false;
}

/**
 * @param {string} dir the installed project, holding the recipe's files
 * @param {{ run: Function, report: Function, failures: string[] }} harness check-consumers' helpers
 */
export async function checkNextjs(dir, { run, report, failures }) {
  const check = (ok, what, detail) => {
    console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
    if (!ok) {
      failures.push(`Next.js recipe: not true that ${what}`);
      if (detail) console.log(detail.trim().split('\n').slice(-60).join('\n'));
    }
    return ok;
  };
  // The recipe's try-out backend, as the user runs it, on a port of its own.
  const script = readFileSync(join(dir, 'billing-backend.mjs'), 'utf8');
  const user = /token: '([^']+)', freeRemaining: (\d+),.*creditsBalance: ([\d.]+)/.exec(script);
  if (!check(/port: 8788/.test(script) && user !== null, 'billing-backend.mjs starts one user on port 8788')) return;
  const [, token, free, balance] = user;
  // A fractional balance: the server's snapshot of it must be taken by the browser's bootstrap.
  if (!check(!Number.isInteger(Number(balance)), `the demo user's balance is fractional (${balance})`)) return;
  const appKey = /APP_KEY = '([^']+)'/.exec(readFileSync(join(dir, 'app/export/billing-config.ts'), 'utf8'))?.[1];
  if (!check(appKey !== undefined, 'app/export/billing-config.ts names an APP_KEY')) return;
  writeFileSync(join(dir, 'billing-backend.ci.mjs'), script.replace('port: 8788', 'port: 0'));
  const backend = serve(process.execPath, ['billing-backend.ci.mjs'], { cwd: dir });
  let next;
  let browser;
  try {
    let url;
    await until(() => (url = /reference backend on (\S+)/.exec(backend.output())?.[1]) !== undefined, 20_000);
    if (!check(url !== undefined, 'the reference backend starts', backend.output())) return;
    // A user's strict settings: the recipe must compile under them, not only under Next's defaults.
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['dom', 'dom.iterable', 'esnext'],
          strict: true,
          noEmit: true,
          module: 'esnext',
          moduleResolution: 'bundler',
          isolatedModules: true,
          jsx: 'react-jsx',
          skipLibCheck: true,
          plugins: [{ name: 'next' }],
        },
        include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts'],
        exclude: ['node_modules'],
      }),
    );
    // NEXT_PUBLIC_ variables are built into the browser's code: the URL is set at build time.
    const env = { ...NEXT_ENV, NEXT_PUBLIC_BILLING_URL: url };
    const started = Date.now();
    const build = await run(join(dir, 'node_modules/.bin/next'), ['build'], { cwd: dir, limitMs: BUILD_LIMIT_MS, env });
    report(`next build of the recipe (${Math.round((Date.now() - started) / 1000)} s)`, build);
    if (build.code !== 0 || build.timedOut) return;

    const port = await freePort();
    const page = `http://127.0.0.1:${port}/export`;
    next = serve(join(dir, 'node_modules/.bin/next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: dir,
      env,
    });
    let html = '';
    const up = await until(async () => {
      if (next.exited()) return true;
      html = await fetch(page, { signal: AbortSignal.timeout(10_000) }).then(
        (answer) => (answer.ok ? answer.text() : ''),
        () => '',
      );
      return html !== '';
    }, START_LIMIT_MS);
    if (!check(up && html !== '', `next start serves ${page}`, next.output())) return;
    // React separates adjacent text with <!-- -->; the recipe renders one string, but be lenient.
    const text = html.replaceAll('<!-- -->', '');
    const label = `Export (${free} free left)`;
    check(text.includes(label) && !text.includes('Loading…'), `the server HTML shows "${label}", not "Loading…"`);
    // The snapshot is a prop of the Client Component, so the page's RSC payload holds it (its quotes escaped).
    check(
      new RegExp(`creditsBalance\\\\*":${balance.replace('.', '\\.')}[,}]`).test(html),
      `the server HTML holds the snapshot with the fractional balance ${balance}`,
    );

    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    const tab = await browser.newPage();
    const problems = [];
    tab.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    tab.on('pageerror', (error) => problems.push(error.message));
    // The browser asks for one on its own; the recipe's layout has none.
    await tab.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
    await tab.goto(page);
    const button = tab.locator('button');
    // Hydrated: the button is enabled and still shows the server's quota (no "Loading…" in between).
    const enabled = await tab
      .waitForFunction(() => document.querySelector('button')?.disabled === false, null, { timeout: 30_000 })
      .then(
        () => true,
        () => false,
      );
    const first = await button.textContent();
    if (!check(enabled && first === label, `after hydration the button is enabled and shows "${label}" (${first})`))
      return;
    await button.click();
    const after = `Export (${Number(free) - 1} free left)`;
    const shown = await tab
      .waitForFunction((want) => document.querySelector('button')?.textContent === want, after, { timeout: 30_000 })
      .then(
        () => true,
        () => false,
      );
    check(shown, `a click in headless Chromium shows "${after}"`);
    const count = await fetch(`${url}/ai/v5/service/free_trial/count?module=generator_${appKey}`, {
      headers: { Authorization: `Bearer ${token}` },
    }).then((answer) => answer.json());
    check(count.data?.free_remaining === Number(free) - 1, 'the click charged one free use on the reference backend');
    check(problems.length === 0, 'the browser console shows no error (no hydration mismatch)', problems.join('\n'));
  } finally {
    await browser?.close();
    await next?.stop();
    await backend.stop();
  }
}
