import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { headingIds, linkTargets, prose, read, ROOT } from '../helpers/markdown';

// Links that work where npm users read them (issue 25, point 2): on npmjs.com, in node_modules and in an editor's
// hover. The docs ship in the tarball; the README and the shipped types link to them at this version on a CDN that
// serves npm tarballs, and the pages link to each other relatively. Every link and anchor must resolve in the packed
// tarball (`npm pack`), pictures included.
const manifest = JSON.parse(read('package.json')) as Record<string, unknown>;
const OWN = `https://cdn.jsdelivr.net/npm/unified-billing@${String(manifest.version)}/`;
const README = read('README.md');

// Pages that other work in progress adds (React Native; telemetry and OpenTelemetry). A link to one is dead until
// that page lands, and is checked like any other from then on: remove a name here once its page exists.
const LANDING = ['docs/react-native.md', 'docs/telemetry.md'].filter((file) => !existsSync(join(ROOT, file)));

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

/**
 * The links of `pages` that do not resolve among `files`: a relative path (or, in the README, an absolute link to
 * this version on the CDN) must name a packed file or folder, and an anchor a heading of the page it points into.
 */
export function deadLinks(pages: ReadonlyMap<string, string>, files: readonly string[]): string[] {
  const shipped = (path: string) =>
    files.includes(path) || files.some((file) => file.startsWith(path.endsWith('/') ? path : `${path}/`));
  return [...pages].flatMap(([page, markdown]) =>
    linkTargets(markdown).flatMap((link) => {
      if (/^(mailto:|https?:\/\/)/.test(link) && !link.startsWith(OWN)) return [];
      const [path = '', anchor] = link.startsWith(OWN) ? link.slice(OWN.length).split('#') : link.split('#');
      const target = link.startsWith(OWN) || path === '' ? path || page : normalize(join(dirname(page), path));
      const dead = (why: string) => [`${page}: ${link} (${why})`];
      if (LANDING.includes(target)) return [];
      if (path !== '' && !shipped(target.replace(/\/$/, '') + (path.endsWith('/') ? '/' : ''))) {
        return dead('not in the tarball');
      }
      if (anchor === undefined) return [];
      const text = pages.get(target) ?? (target.endsWith('.md') ? read(target) : null);
      if (text === null) return dead('an anchor into a file that is not Markdown');
      return headingIds(text).has(anchor) ? [] : dead('no such heading');
    }),
  );
}

describe('links that work on npm (issue 25, point 2)', () => {
  const readmeLinks = linkTargets(README);
  let files: string[] = [];
  let pages = new Map<string, string>();

  beforeAll(() => {
    files = packed();
    pages = new Map(files.filter((file) => file.endsWith('.md')).map((file) => [file, read(file)]));
  }, 60_000);

  it('the README has no relative link: each is an anchor or an absolute https URL', () => {
    expect(readmeLinks.length).toBeGreaterThan(10);
    expect(readmeLinks.filter((link) => !link.startsWith('#') && !link.startsWith('https://'))).toEqual([]);
  });

  it('the tarball holds the README, every docs page and every picture', () => {
    const pictures = readdirSync(join(ROOT, 'docs', 'pictures')).filter((name) => name.endsWith('.svg'));
    const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    expect(pictures.length).toBeGreaterThanOrEqual(5);
    const expected = [
      'README.md',
      ...docs.map((name) => `docs/${name}`),
      ...pictures.map((name) => `docs/pictures/${name}`),
    ];
    expect(expected.filter((file) => !files.includes(file))).toEqual([]);
  });

  it('every link of the README and of every packed page, and every anchor, resolves in the tarball', () => {
    expect([...pages.keys()]).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/api.md']));
    expect(deadLinks(pages, files)).toEqual([]);
  });

  it('fails on a dead link, a dead anchor and a link to the wrong version (the check can fail)', () => {
    const page = new Map([
      [
        'docs/planted.md',
        '# Planted\n\n[gone](gone.md), [api](api.md#no-such-heading), [ok](api.md#options), [self](#planted)\n',
      ],
      ['README.md', `[old](${OWN.replace(/@[^/]+/, '@0.0.1')}docs/api.md) [anchor](${OWN}docs/api.md#nope)\n`],
    ]);
    expect(deadLinks(page, files)).toEqual([
      'docs/planted.md: gone.md (not in the tarball)',
      'docs/planted.md: api.md#no-such-heading (no such heading)',
      `README.md: ${OWN}docs/api.md#nope (no such heading)`,
    ]);
    // A CDN link at another version is left to the next test, which names the version.
  });

  it("every link to the package's own files names this version", () => {
    const inLib = sources(join(ROOT, 'lib')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/https:\/\/cdn\.jsdelivr\.net\/npm\/unified-billing@[^\s|}]+/g)].map(
        (match) => match[0],
      ),
    );
    const own = [...readmeLinks, ...inLib].filter((link) => link.includes('/npm/unified-billing@'));
    expect(own.length).toBeGreaterThan(10);
    expect(inLib.length).toBeGreaterThan(0);
    const shipped = (path: string) => files.some((file) => file === path || file.startsWith(`${path}/`));
    const broken = own.filter((link) => !link.startsWith(OWN) || !shipped(link.slice(OWN.length).split('#')[0]!));
    expect(broken.filter((link) => !LANDING.some((file) => link.includes(file)))).toEqual([]);
  });

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
    const ids = headingIds(README);
    const anchors = readmeLinks.filter((link) => link.startsWith('#')).map((link) => link.slice(1));
    expect(anchors.length).toBeGreaterThan(0);
    expect(anchors.filter((anchor) => !ids.has(anchor))).toEqual([]);
    expect(prose(README)).not.toMatch(/\]\(\.\.?\//);
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
