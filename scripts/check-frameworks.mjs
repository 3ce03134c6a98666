/* global sessionStorage */
// The Vue and Angular recipes (docs/recipes/) as a user builds them from the
// packed tarball, each with its framework's own compiler, run by
// check-consumers.mjs once the projects are installed (scripts/consumers/vue/
// and angular/ hold the app around the recipes):
// - Vue: the recipe files and the components and vite.config.ts their comments
//   show, `vue-tsc --noEmit` and `vite build`; Wrong.vue must fail vue-tsc on
//   `:billing="42"` and on a handler for the wrong event (unified-billing/element/vue);
// - Angular: the three recipes on one page, `ng build` under strictTemplates;
//   src/wrong.ts must fail it on `[billing]="42"` and on a wrong handler;
// - each built app served and rendered once in headless Chromium against the
//   reference backend (the recipes' https://api.example.com is routed to it):
//   the quota shows in the recipe's component and in <billing-meter>, and a
//   click on the gate charges once, which both then show (one client).
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const recipes = resolve(import.meta.dirname, '../docs/recipes');
const BUILD_LIMIT_MS = 300_000;
const RENDER_LIMIT_MS = 30_000;
const USER = { token: 'dev-token', freeRemaining: 3, freeTotal: 3, creditsPerUse: 10, creditsBalance: 50 };
const RECIPE_BACKEND = 'https://api.example.com';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * The files a recipe's comment shows whole: each block of `//   ` lines whose
 * first line names it (`<!-- ExportBar.vue -->` or `// vite.config.ts`).
 */
function filesInComments(source) {
  const files = new Map();
  let current;
  for (const line of source.split('\n')) {
    const text = /^\/\/ {3}(.*)$/.exec(line)?.[1];
    if (text === undefined) {
      current = undefined;
      continue;
    }
    const name = /^(?:<!-- (\S+) -->|\/\/ (\S+\.\w+))$/.exec(text);
    if (current === undefined && name !== null) files.set((current = name[1] ?? name[2]), []);
    else if (current !== undefined) files.get(current).push(text);
  }
  return new Map([...files].map(([name, lines]) => [name, `${lines.join('\n')}\n`]));
}

/** The 1-based numbers of the lines of `file` that contain `marker`. */
function linesWith(file, marker) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, index) => (line.includes(marker) ? [index + 1] : []));
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

/** Serves a built app's files; any other path gets index.html, as an app host does. */
function serveStatic(root) {
  const server = createServer((request, response) => {
    const path = join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    const file = path.startsWith(root) && existsSync(path) && extname(path) !== '' ? path : join(root, 'index.html');
    response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  return new Promise((ready) =>
    server.listen(0, '127.0.0.1', () =>
      ready({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    ),
  );
}

/**
 * Opens the built app in headless Chromium, the recipes' backend routed to a
 * reference backend (from the installed tarball), and checks what it shows.
 */
async function render(dir, root, { what, check, panel, sessionToken }) {
  const { startReferenceBackend } = createRequire(join(dir, 'package.json'))('unified-billing/testing');
  const backend = await startReferenceBackend({ users: [USER] });
  const site = await serveStatic(root);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const tab = await browser.newPage();
    const problems = [];
    tab.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    tab.on('pageerror', (error) => problems.push(error.message));
    await tab.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
    await tab.route(`${RECIPE_BACKEND}/**`, async (route) => {
      const { pathname, search } = new URL(route.request().url());
      await route.fulfill({ response: await route.fetch({ url: `${backend.url}${pathname}${search}` }) });
    });
    if (sessionToken) await tab.addInitScript((token) => sessionStorage.setItem('token', token), USER.token);
    await tab.goto(site.url);
    const shows = (selector, text) =>
      tab
        .waitForFunction(
          ([selector, text]) => document.querySelector(selector)?.textContent?.includes(text) === true,
          [selector, text],
          { timeout: RENDER_LIMIT_MS },
        )
        .then(
          () => true,
          () => false,
        );
    const meterShows = (text) =>
      tab
        .waitForFunction(
          (text) => document.querySelector('billing-meter')?.shadowRoot?.textContent?.includes(text) === true,
          text,
          { timeout: RENDER_LIMIT_MS },
        )
        .then(
          () => true,
          () => false,
        );
    for (const selector of panel) check(await shows(selector, '3 / 3 free'), `${what}: ${selector} shows "3 / 3 free"`);
    check(await meterShows('3 of 3 free exports left'), `${what}: <billing-meter> shows "3 of 3 free exports left"`);
    await tab.locator('billing-gate button').click();
    check(await shows('#elements', 'Exporting…'), `${what}: a click on <billing-gate> says "Exporting…"`);
    check(
      await meterShows('2 of 3 free exports left'),
      `${what}: <billing-meter> then shows "2 of 3 free exports left"`,
    );
    // The same client: the recipe's quota component sees the gate's charge.
    for (const selector of panel)
      check(await shows(selector, '2 / 3 free'), `${what}: ${selector} then shows "2 / 3 free"`);
    const usage = await fetch(`${backend.url}/ai/v5/service/free_trial/count?module=generator_poster`, {
      headers: { Authorization: `Bearer ${USER.token}` },
    });
    const remaining = (await usage.json()).data?.free_remaining;
    check(remaining === 2, `${what}: the reference backend charged one free use (${remaining} left)`);
    check(problems.length === 0, `${what}: the browser console shows no error`, problems.join('\n'));
  } finally {
    await browser.close();
    site.close();
    await backend.close();
  }
}

/** Expects a build to fail, with an error on each of `lines` of `file` (and on no line, it fails). */
function expectErrors(result, { what, file, lines, check }) {
  const missing = lines.filter((line) => !new RegExp(`${file.replace('.', '\\.')}[(:]${line}[,:]`).test(result.output));
  const ok = result.code !== 0 && !result.timedOut && missing.length === 0 && lines.length > 0;
  check(ok, `${what} fails with an error on each wrong line of ${file} (${lines.join(', ')})`, result.output);
}

/**
 * @param {string} dir the installed Vue project (scripts/consumers/vue/)
 * @param {{ run: Function, report: Function, check: Function }} harness
 */
export async function checkVue(dir, { run, report, check }) {
  const started = Date.now();
  for (const recipe of ['vue.ts', 'elements-vue.ts']) {
    const source = readFileSync(join(recipes, recipe), 'utf8');
    writeFileSync(join(dir, 'src', recipe), source);
    for (const [name, text] of filesInComments(source))
      writeFileSync(join(dir, name.endsWith('.vue') ? 'src' : '', name), text);
  }
  if (
    !check(
      existsSync(join(dir, 'src/ExportBar.vue')) && existsSync(join(dir, 'vite.config.ts')),
      'elements-vue.ts shows ExportBar.vue and vite.config.ts',
    )
  )
    return;
  const bin = (name) => join(dir, 'node_modules/.bin', name);
  const typed = await run(bin('vue-tsc'), ['--noEmit', '-p', 'tsconfig.json'], { cwd: dir, limitMs: BUILD_LIMIT_MS });
  report('Vue: vue-tsc --noEmit on the recipes and their components', typed);
  const wrong = await run(bin('vue-tsc'), ['--noEmit', '-p', 'tsconfig.wrong.json'], {
    cwd: dir,
    limitMs: BUILD_LIMIT_MS,
  });
  const lines = [':billing="42"', '(event: number)'].flatMap((text) => linesWith(join(dir, 'src/Wrong.vue'), text));
  expectErrors(wrong, { what: 'Vue: vue-tsc', file: 'Wrong.vue', lines, check });
  const built = await run(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: dir, limitMs: BUILD_LIMIT_MS });
  report('Vue: vite build', built);
  if (built.code !== 0 || built.timedOut) return;
  await render(dir, join(dir, 'dist'), { what: 'Vue', check, panel: ['#quota'], sessionToken: false });
  console.log(`(Vue: ${Math.round((Date.now() - started) / 1000)} s)`);
}

/**
 * @param {string} dir the installed Angular project (scripts/consumers/angular/)
 * @param {{ run: Function, report: Function, check: Function }} harness
 */
export async function checkAngular(dir, { run, report, check }) {
  const started = Date.now();
  for (const recipe of ['angular-usage.component.ts', 'angular-signals.component.ts', 'elements-angular.component.ts'])
    copyFileSync(join(recipes, recipe), join(dir, 'src', recipe));
  const ng = join(dir, 'node_modules/.bin/ng');
  const env = { NG_CLI_ANALYTICS: 'false', FORCE_COLOR: '0' };
  const built = await run(ng, ['build'], { cwd: dir, limitMs: BUILD_LIMIT_MS, env });
  report('Angular: ng build (strictTemplates) of the three recipes on one page', built);
  const wrong = await run(ng, ['build', '--configuration', 'wrong'], { cwd: dir, limitMs: BUILD_LIMIT_MS, env });
  expectErrors(wrong, {
    what: 'Angular: ng build',
    file: 'wrong.ts',
    lines: ['[billing]="42"', 'count($event)'].flatMap((text) => linesWith(join(dir, 'src/wrong.ts'), text)),
    check,
  });
  if (built.code !== 0 || built.timedOut) return;
  await render(dir, join(dir, 'dist/app/browser'), {
    what: 'Angular',
    check,
    panel: ['#async', '#signals'],
    sessionToken: true,
  });
  console.log(`(Angular: ${Math.round((Date.now() - started) / 1000)} s)`);
}
