import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// One version story (issue 31, point 5): what package.json says is what the CHANGELOG's newest
// release and the messages say, so a breaking change never ships under a version that hides it.
const ROOT = join(__dirname, '..', '..');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  version: string;
  packages: Record<string, { version?: string }>;
};
const CHANGELOG = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');

const order = (v: string) => v.split('.').map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [order(a), order(b)];
  const differs = x.findIndex((part, index) => part !== y[index]);
  return differs >= 0 && x[differs]! > y[differs]!;
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('one version story (issue 31)', () => {
  it("package-lock.json's root says package.json's version", () => {
    expect([lock.version, lock.packages['']?.version]).toEqual([version, version]);
  });

  it("the CHANGELOG's newest release is this version, dated, under an Unreleased heading", () => {
    const headings = [...CHANGELOG.matchAll(/^## \[([^\]]+)\](.*)$/gm)].map((match) => [match[1], match[2]]);
    expect(headings[0]).toEqual(['Unreleased', '']);
    expect(headings[1]?.[0]).toBe(version);
    expect(headings[1]?.[1]).toMatch(/^ - \d{4}-\d{2}-\d{2}$/);
  });

  it('no message, comment or doc of the library names a version after this one', () => {
    const texts = [
      ...sources(join(ROOT, 'lib')),
      join(ROOT, 'README.md'),
      ...readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => join(ROOT, 'docs', name)),
    ];
    const later = texts.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\b(\d+\.\d+\.\d+)\b/g)]
        .map((match) => match[1]!)
        // Versions of the library only: a dependency's (React 18.3, TypeScript 5.9) is
        // never 0.x here.
        .filter((found) => found.startsWith('0.') && newer(found, version))
        .map((found) => `${file}: ${found}`),
    );
    expect(later).toEqual([]);
  });
});
