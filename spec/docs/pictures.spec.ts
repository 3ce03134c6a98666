import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PICTURES } from '../../scripts/pictures/pictures';
import { render, type Picture } from '../../scripts/pictures/svg';
import { linkTargets, markdownPages, read, ROOT } from '../helpers/markdown';

// The docs' pictures are drawn from their sources (scripts/pictures/sources/*.ts) by our own small SVG writer, so a
// picture is regenerated here, byte for byte, and must be the committed file: a changed source without a redraw fails.
// `node playground/run-ts.mjs scripts/pictures/main.ts` redraws them.
const DIR = join(ROOT, 'docs', 'pictures');

/** The pictures whose committed SVG differs from what their source draws. */
export function stale(pictures: readonly Picture[]): string[] {
  return pictures
    .filter((picture) => readFileSync(join(DIR, `${picture.name}.svg`), 'utf8') !== render(picture))
    .map((picture) => picture.name);
}

/** Each use of a picture in the pages: `![alt](…/docs/pictures/name.svg)`. */
function uses(): { page: string; name: string; alt: string }[] {
  return markdownPages().flatMap((page) =>
    [...read(page).matchAll(/!\[([^\]]*)\]\(([^)\s]*\/)?pictures\/([\w-]+)\.svg\)/g)].map((match) => ({
      page,
      name: match[3]!,
      alt: match[1]!.replace(/\s+/g, ' '),
    })),
  );
}

describe('the pictures of the docs', () => {
  it('are five, each committed as its source draws it', () => {
    expect(PICTURES.map((picture) => picture.name).sort()).toEqual(
      ['decide', 'external-id', 'free-period', 'ssr', 'three-calls'].sort(),
    );
    expect(
      readdirSync(DIR)
        .filter((name) => name.endsWith('.svg'))
        .sort(),
    ).toEqual(PICTURES.map((picture) => `${picture.name}.svg`).sort());
    expect(stale(PICTURES)).toEqual([]);
  });

  it('fails when a source changes and its picture is not redrawn (the check can fail)', () => {
    const [first] = PICTURES;
    const changed: Picture = { ...first!, shapes: [...first!.shapes, '<circle cx="1" cy="1" r="1"/>'] };
    expect(stale([changed])).toEqual([first!.name]);
  });

  it('say what they show: a title and a description in the SVG, and alt text in every page that shows one', () => {
    for (const picture of PICTURES) {
      const svg = render(picture);
      expect(svg).toMatch(/<title id="title">[^<]{10,}<\/title>/);
      expect(svg).toMatch(/<desc id="desc">[^<]{80,}<\/desc>/);
      expect(svg).toMatch(/role="img" aria-labelledby="title desc"/);
    }
    const shown = uses();
    expect(new Set(shown.map((use) => use.name))).toEqual(new Set(PICTURES.map((picture) => picture.name)));
    for (const use of shown) expect({ ...use, long: use.alt.length >= 80 }).toEqual({ ...use, long: true });
  });

  it('draw their own light background, so they read on a dark page too', () => {
    for (const picture of PICTURES) {
      expect(render(picture)).toMatch(
        new RegExp(`<rect x="0" y="0" width="${picture.width}" height="${picture.height}" rx="12" fill="#ffffff"`),
      );
    }
  });

  it('every picture a page links is one of them', () => {
    const linked = markdownPages()
      .flatMap((page) => linkTargets(read(page)))
      .filter((link) => link.endsWith('.svg'))
      .map((link) => /([\w-]+)\.svg$/.exec(link)![1]);
    expect(linked.filter((name) => !PICTURES.some((picture) => picture.name === name))).toEqual([]);
  });
});
