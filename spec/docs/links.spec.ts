import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Links that work where npm users read them (issue 25, point 2): on npmjs.com, in
// node_modules and in an editor's hover. The docs ship in the tarball, and the README
// and the shipped types link to them at this version on a CDN that serves npm tarballs.
const ROOT = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
const OWN = `https://cdn.jsdelivr.net/npm/unified-billing@${String(manifest.version)}/`;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** What `npm pack` puts in the tarball (paths inside it). */
function packed(): string[] {
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
  ) as [{ files: { path: string }[] }];
  return pack.files.map((file) => file.path);
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** GitHub's and npm's heading ids: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('links that work on npm (issue 25, point 2)', () => {
  const links = [...README.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);

  it('the README has no relative link: each is an anchor or an absolute https URL', () => {
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((link) => !link.startsWith('#') && !link.startsWith('https://'))).toEqual([]);
  });

  it("every link to the package's own files names this version and a file the tarball holds", () => {
    const files = packed();
    const shipped = (path: string) =>
      files.some((file) => file === path || (path.endsWith('/') && file.startsWith(path)));
    const inLib = sources(join(ROOT, 'lib')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/https:\/\/cdn\.jsdelivr\.net\/npm\/unified-billing@[^\s|}]+/g)].map(
        (match) => match[0],
      ),
    );
    const own = [...links, ...inLib].filter((link) => link.includes('/npm/unified-billing@'));
    expect(own.length).toBeGreaterThan(10);
    expect(inLib.length).toBeGreaterThan(0);
    const broken = own.filter((link) => !link.startsWith(OWN) || !shipped(link.slice(OWN.length).split('#')[0]!));
    expect(broken).toEqual([]);
  }, 60_000);

  it('the shipped types name no repository path except through such a link', () => {
    const bare = sources(join(ROOT, 'lib')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^\s*(\*|\/\/)/.test(line) && /\bdocs\/\S+\.md\b/.test(line.replace(/\{@link [^}]+\}/g, '')))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(bare).toEqual([]);
  });

  it('every anchor in the README names one of its headings', () => {
    const ids = new Set([...README.matchAll(/^#{1,4} (.+)$/gm)].map((match) => slug(match[1]!)));
    const anchors = links.filter((link) => link.startsWith('#')).map((link) => link.slice(1));
    expect(anchors.length).toBeGreaterThan(5);
    expect(anchors.filter((anchor) => !ids.has(anchor))).toEqual([]);
  });

  it('package.json links are real https URLs, never a placeholder', () => {
    const urls = [manifest.homepage, manifest.repository, manifest.bugs]
      .filter((value) => value !== undefined)
      .map((value) => JSON.stringify(value));
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url).toMatch(/https:\/\//);
      expect(url).not.toMatch(/example\.(com|org)|your-?(org|name|user)|TODO|placeholder/i);
    }
  });
});
