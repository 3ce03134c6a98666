import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const RECIPES = join(__dirname, '..', '..', 'docs', 'recipes');
const NEXTJS = join(RECIPES, 'nextjs');

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path).map((file) => join(name, file)) : [name];
  });
}

/** The text of each fenced block of a Markdown file, whatever its language. */
const fencedBlocks = (markdown: string): string[] =>
  [...markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);

describe('recipes a user can copy (issue 25, point 1)', () => {
  it('import the package by its published names, never the repository sources', () => {
    const sources = filesUnder(RECIPES).filter((file) => /\.(ts|tsx|mjs|md)$/.test(file));
    const imports = sources.flatMap((file) =>
      [...readFileSync(join(RECIPES, file), 'utf8').matchAll(/from '([^']+)'/g)].map((match) => `${file}: ${match[1]}`),
    );
    expect(imports.filter((line) => line.endsWith(': unified-billing')).length).toBeGreaterThan(5);
    expect(imports.filter((line) => /: \.\.?\/.*lib\b/.test(line))).toEqual([]);
  });

  it('nextjs.md shows every file of the Next.js recipe whole, as CI builds it', () => {
    const markdown = readFileSync(join(RECIPES, 'nextjs.md'), 'utf8');
    const blocks = fencedBlocks(markdown);
    const files = filesUnder(NEXTJS);
    expect(files).toEqual(expect.arrayContaining(['app/export/page.tsx', 'app/export/billing-client.tsx']));
    for (const file of files) {
      const source = readFileSync(join(NEXTJS, file), 'utf8');
      // Each file names its place in the app on its first line, so a copy lands where the imports expect it.
      expect(source.split('\n')[0]).toContain(file);
      expect({ file, shown: blocks.includes(source) }).toEqual({ file, shown: true });
    }
  });

  it('the client file is JSX, the placeholders say so with a try-out value, and readSession is defined', () => {
    const client = readFileSync(join(NEXTJS, 'app/export/billing-client.tsx'), 'utf8');
    expect(client).toMatch(/^'use client';$/m);
    expect(client).toContain('<button');
    for (const file of ['app/export/billing-config.ts', 'app/export/session.ts']) {
      const source = readFileSync(join(NEXTJS, file), 'utf8');
      expect(source).toMatch(/PLACEHOLDER/);
      expect(source).toMatch(/[Tt]ry-out values?\b/);
    }
    expect(readFileSync(join(NEXTJS, 'app/export/session.ts'), 'utf8')).toMatch(/export async function readSession\(/);
    expect(readFileSync(join(NEXTJS, 'app/export/page.tsx'), 'utf8')).toMatch(/from '\.\/session'/);
  });

  it('nextjs.md warns that a token passed as a prop is in the RSC payload', () => {
    const markdown = readFileSync(join(RECIPES, 'nextjs.md'), 'utf8');
    expect(markdown).toMatch(/RSC payload/);
    expect(markdown).toMatch(/`token` prop is in the\s+page's source/);
  });

  it("the Vue and Angular element recipes use the app's one client, and vite.config.ts creates none (issue 31)", () => {
    const read = (file: string) => readFileSync(join(RECIPES, file), 'utf8');
    for (const file of ['elements-vue.ts', 'elements-angular.component.ts']) {
      expect({ file, createsClient: /createClient\(/.test(read(file)) }).toEqual({ file, createsClient: false });
    }
    expect(read('elements-angular.component.ts')).toMatch(/inject\(BillingService\)/);
    expect(read('elements-vue.ts')).toMatch(/inject\(billingKey\)/);
    // The config block the recipe shows (CI builds it): only Vite's own imports, the check inline.
    const config = /^\/\/ {3}\/\/ vite\.config\.ts\n((?:\/\/ {3}.*\n)+)/m.exec(read('elements-vue.ts'))?.[1] ?? '';
    expect([...config.matchAll(/from '([^']+)'/g)].map((match) => match[1])).toEqual(['@vitejs/plugin-vue', 'vite']);
    expect(config).toMatch(/const isCustomElement = \(tag: string\) =>/);
  });

  it('every recipe file is listed in the docs map (docs/README.md, "Recipes")', () => {
    const index = readFileSync(join(RECIPES, '..', 'README.md'), 'utf8');
    const listed = filesUnder(RECIPES).filter((file) => !file.startsWith('nextjs/'));
    for (const file of listed) {
      expect({ file, listed: index.includes(`(recipes/${file})`) }).toEqual({ file, listed: true });
    }
    expect(index).toContain('(recipes/nextjs/)');
  });
});
