import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// What the docs checks read: the Markdown pages users get (README.md and docs/, recipes included), their code
// blocks, links and headings.
export const ROOT = join(__dirname, '..', '..');

/** The Markdown pages of the package, as paths from the repository root. */
export function markdownPages(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${dir}/${name}`);
  return ['README.md', ...under('docs'), ...under('docs/recipes')];
}

export interface CodeBlock {
  readonly file: string;
  /** The line of the opening fence, from 1. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
}

/** The fenced blocks of a Markdown text (``` at the start of a line, with their language). */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  return [...markdown.matchAll(/^```([a-z]*)[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => ({
    file,
    line: markdown.slice(0, match.index).split('\n').length,
    lang: match[1]!,
    code: match[2]!,
  }));
}

/** The text of a page without its code blocks (links and headings in code are not links and headings). */
export const prose = (markdown: string): string => markdown.replace(/^```[\s\S]*?^```$/gm, '');

/** GitHub's and npm's heading ids: lower case, punctuation dropped, spaces as dashes; repeats get -1, -2. */
export function headingIds(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const match of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = match[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    ids.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return ids;
}

/** Every link and image target of a page's prose: inline `[text](target)`, and reference definitions. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  return [
    ...[...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!),
    ...[...text.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!),
    ...[...text.matchAll(/<img [^>]*src="([^"]+)"/g)].map((match) => match[1]!),
  ];
}

export const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
