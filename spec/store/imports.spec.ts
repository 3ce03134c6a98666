import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Issue 24: the store knows features only through its own hook types (lib/store/hooks.ts), and
// the client only as the layer above it, so neither can be reached from the store. The CI's
// dependency check states the whole direction; this spec pins the store's part of it.
const STORE = join(__dirname, '../../lib/store');
const importsOf = (file: string) =>
  [...readFileSync(join(STORE, file), 'utf8').matchAll(/^(?:import|export)[^;]*?from '([^']+)'/gms)].map(
    ([, path]) => path as string,
  );

describe('lib/store imports', () => {
  const files = readdirSync(STORE).filter((file) => file.endsWith('.ts'));

  it('reads every file of the store', () => {
    expect(files).toEqual(expect.arrayContaining(['create-store.ts', 'consume.ts', 'hooks.ts']));
    expect(importsOf('create-store.ts')).toContain('./hooks');
  });

  it.each(files)('%s imports only shared/, core/, transport/, its own folder and rxjs', (file) => {
    const outside = importsOf(file).filter(
      (path) => !/^(rxjs|\.\/[\w-]+|\.\.\/(shared|core|transport)\/[\w-]+)$/.test(path),
    );
    expect(outside).toEqual([]);
  });
});
