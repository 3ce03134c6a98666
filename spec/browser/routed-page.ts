import { build } from 'esbuild';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import type { InProcessReferenceBackend, RequestRecord } from '../../lib/testing';
import { devFlag } from '../../scripts/dev-flag.cjs';

/**
 * Bundles `source` (TypeScript, imports relative to the repository root) for the browser as
 * an app's bundler would, React in its development build (which reports hydration
 * mismatches).
 */
export async function bundlePage(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: join(__dirname, '../..'), loader: 'ts' },
    bundle: true,
    plugins: [devFlag],
    write: false,
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"development"' },
    format: 'iife',
    target: 'es2020',
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * Serves `html` at `origin`/ and hands every other request to the in-process reference
 * backend; returns the API requests the page made.
 */
export async function routePage(
  page: Page,
  origin: string,
  html: string,
  backend: InProcessReferenceBackend,
): Promise<() => RequestRecord[]> {
  await page.route(`${origin}/**`, async (route: Route) => {
    const request = route.request();
    if (new URL(request.url()).pathname === '/') {
      await route.fulfill({ contentType: 'text/html', body: html });
      return;
    }
    const body = request.postData();
    const response = await backend.fetch(request.url(), {
      method: request.method(),
      headers: request.headers(),
      ...(body === null ? {} : { body }),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    await route.fulfill({ status: response.status, headers, body: await response.text() });
  });
  return () => backend.requests();
}

/** A JSON value as a `<script>` may hold it: no `</script>` can close the tag early. */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
