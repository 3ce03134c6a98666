import { build } from 'esbuild';
import { join } from 'node:path';
import { devFlag } from '../../scripts/dev-flag.cjs';

const root = join(__dirname, '../..');

// The rxjs modules a browser bundle of `contents` pulls in, by path inside rxjs's esm5 build.
async function rxjsModules(contents: string): Promise<string[]> {
  const result = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'app.ts' },
    bundle: true,
    plugins: [devFlag],
    minify: true,
    format: 'esm',
    platform: 'browser',
    external: ['uuid', 'cross-fetch', 'react'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
  return inputs
    .filter((path) => path.includes('node_modules/rxjs/'))
    .map((path) => path.split('/internal/')[1] ?? path);
}

// Issue 11: higher-order operators pull innerFrom and friends (2 to 3 KB gzipped) into every app.
describe('what the core path takes from rxjs', () => {
  it('an app importing createClient gets Observable, the subjects and Subscription, no operator', async () => {
    const modules = await rxjsModules("export { createClient } from './lib/index.ts';");
    expect(modules).toEqual(expect.arrayContaining(['Observable.js', 'Subject.js', 'BehaviorSubject.js']));
    expect(modules.filter((path) => path.startsWith('operators/'))).toEqual([]);
    expect(modules).not.toContain('observable/innerFrom.js');
    expect(modules).not.toContain('ReplaySubject.js');
    // timeoutProvider is how any Subscriber reports an error thrown by its callback: core, not a scheduler.
    expect(modules.filter((path) => path.startsWith('scheduler/') && !path.endsWith('timeoutProvider.js'))).toEqual([]);
  });

  it('the React entry subscribes without merge or take', async () => {
    const modules = await rxjsModules("export * from './lib/react/index.ts';");
    expect(modules.filter((path) => path.startsWith('operators/') || path.startsWith('observable/'))).toEqual([]);
  });
});
