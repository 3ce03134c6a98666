// A small drawing kit for the docs' pictures: plain strings in, one SVG string out.
// No font is measured and nothing depends on the machine, so the same source gives the
// same bytes everywhere, and CI can regenerate each picture and compare it with the
// committed file (spec/docs/pictures.spec.ts).

/** Colours of a shape, by what it stands for. */
export type Tone = 'plain' | 'free' | 'credit' | 'refused' | 'server' | 'browser' | 'note';

const FILL: Record<Tone, string> = {
  plain: '#f4f6f8',
  free: '#e3f4e8',
  credit: '#fdf1d8',
  refused: '#fbe3e3',
  server: '#e8eefc',
  browser: '#f1e8fb',
  note: '#ffffff',
};
const STROKE: Record<Tone, string> = {
  plain: '#5b6670',
  free: '#2f8a4c',
  credit: '#b7791f',
  refused: '#c53030',
  server: '#3b5bdb',
  browser: '#7b3fc4',
  note: '#9aa5b1',
};
const INK = '#1f2933';

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const n = (value: number): string => String(Math.round(value * 10) / 10);

/** Lines of text centred on (x, y), one line every 17 px; `code` lines in monospace. */
export function text(
  x: number,
  y: number,
  lines: readonly string[],
  options: { anchor?: 'start' | 'middle' | 'end'; size?: number; bold?: boolean; code?: boolean } = {},
): string {
  const size = options.size ?? 13;
  const step = size + 4;
  const top = y - ((lines.length - 1) * step) / 2;
  const attributes = [
    `x="${n(x)}"`,
    `text-anchor="${options.anchor ?? 'middle'}"`,
    `font-size="${size}"`,
    options.bold ? 'font-weight="600"' : '',
    options.code ? 'class="code"' : '',
  ]
    .filter((attribute) => attribute !== '')
    .join(' ');
  return lines
    .map((line, index) => `<text ${attributes} y="${n(top + index * step)}" dy="0.35em">${escape(line)}</text>`)
    .join('\n');
}

/** A rounded box with centred lines of text. */
export function box(
  x: number,
  y: number,
  width: number,
  height: number,
  lines: readonly string[],
  tone: Tone = 'plain',
  options: { bold?: boolean; dashed?: boolean; size?: number } = {},
): string {
  const dash = options.dashed ? ' stroke-dasharray="5 4"' : '';
  return [
    `<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" rx="8" fill="${FILL[tone]}" stroke="${STROKE[tone]}" stroke-width="1.5"${dash}/>`,
    text(x + width / 2, y + height / 2, lines, {
      ...(options.bold === undefined ? {} : { bold: options.bold }),
      ...(options.size === undefined ? {} : { size: options.size }),
    }),
  ].join('\n');
}

/** A decision: a diamond centred on (cx, cy) with its question inside. */
export function diamond(cx: number, cy: number, width: number, height: number, lines: readonly string[]): string {
  const points = [
    [cx, cy - height / 2],
    [cx + width / 2, cy],
    [cx, cy + height / 2],
    [cx - width / 2, cy],
  ]
    .map(([px, py]) => `${n(px!)},${n(py!)}`)
    .join(' ');
  return [
    `<polygon points="${points}" fill="#ffffff" stroke="${STROKE.plain}" stroke-width="1.5"/>`,
    text(cx, cy, lines, { size: 12 }),
  ].join('\n');
}

/** An arrow through the given points, with an optional label beside its middle segment. */
export function arrow(
  points: ReadonlyArray<readonly [number, number]>,
  label?: string,
  options: { dashed?: boolean; labelAt?: readonly [number, number]; anchor?: 'start' | 'middle' | 'end' } = {},
): string {
  const path = points.map(([px, py], index) => `${index === 0 ? 'M' : 'L'}${n(px)} ${n(py)}`).join(' ');
  const dash = options.dashed ? ' stroke-dasharray="5 4"' : '';
  const parts = [`<path d="${path}" fill="none" stroke="${INK}" stroke-width="1.4"${dash} marker-end="url(#head)"/>`];
  if (label !== undefined) {
    const middle = Math.max(0, Math.floor((points.length - 2) / 2));
    const [ax, ay] = points[middle]!;
    const [bx, by] = points[middle + 1]!;
    const [lx, ly] = options.labelAt ?? [(ax + bx) / 2, (ay + by) / 2 - 9];
    parts.push(text(lx, ly, [label], { size: 12, anchor: options.anchor ?? 'middle' }));
  }
  return parts.join('\n');
}

/** A plain line (an axis, a lifeline, a tick). */
export function line(x1: number, y1: number, x2: number, y2: number, options: { dashed?: boolean } = {}): string {
  const dash = options.dashed ? ' stroke-dasharray="4 4"' : '';
  return `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${STROKE.plain}" stroke-width="1.2"${dash}/>`;
}

/** A filled band (a period on a timeline, a region of a diagram), drawn under what follows it. */
export function band(x: number, y: number, width: number, height: number, tone: Tone): string {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" rx="6" fill="${FILL[tone]}" stroke="${STROKE[tone]}" stroke-width="1" stroke-dasharray="3 3"/>`;
}

/** A dot on a timeline. */
export function dot(cx: number, cy: number, tone: Tone): string {
  return `<circle cx="${n(cx)}" cy="${n(cy)}" r="6" fill="${FILL[tone]}" stroke="${STROKE[tone]}" stroke-width="2"/>`;
}

/** What a picture is: its size, what it says in words (the alt text), and what is drawn. */
export interface Picture {
  /** The file name under docs/pictures/, without `.svg`. */
  readonly name: string;
  readonly width: number;
  readonly height: number;
  /** A short title, the SVG's <title>. */
  readonly title: string;
  /** What the picture says, in sentences: the SVG's <desc> and the docs' alt text. */
  readonly alt: string;
  /** The shapes, drawn in order. */
  readonly shapes: readonly string[];
}

/**
 * The SVG of a picture. It draws its own light background, so it reads the same on npm's
 * white page and in a dark theme (an <img> cannot see the page's theme, only the system's).
 */
export function render(picture: Picture): string {
  const { width, height } = picture;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="title desc">`,
    `<title id="title">${escape(picture.title)}</title>`,
    `<desc id="desc">${escape(picture.alt)}</desc>`,
    '<defs>',
    `<marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="${INK}"/></marker>`,
    '</defs>',
    '<style>',
    `text { font-family: system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; fill: ${INK}; }`,
    `text.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }`,
    '</style>',
    `<rect x="0" y="0" width="${width}" height="${height}" rx="12" fill="#ffffff" stroke="#d9dee3"/>`,
    ...picture.shapes,
    '</svg>',
    '',
  ].join('\n');
}
