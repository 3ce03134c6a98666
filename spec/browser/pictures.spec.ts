import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';

// The docs' pictures as a browser shows them (npm's page and GitHub show an SVG through <img>): each must load with
// no render error and draw a picture, not an empty card. The SVG is drawn into a canvas at its own size and its ink
// counted: pixels darker than the light background it draws for itself.
const DIR = join(__dirname, '..', '..', 'docs', 'pictures');

interface Rendered {
  readonly error: string | null;
  readonly width: number;
  readonly height: number;
  /** The share of pixels that are ink (dark text and lines), from 0 to 1. */
  readonly ink: number;
}

async function rendered(page: Page, svg: string): Promise<Rendered> {
  const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return page.evaluate(async (src) => {
    const image = new Image();
    const loaded = new Promise<string | null>((resolve) => {
      image.onload = () => resolve(null);
      image.onerror = () => resolve('the image failed to load (a malformed SVG)');
    });
    image.src = src;
    const error = await loaded;
    if (error !== null) return { error, width: 0, height: 0, ink: 0 };
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#808080'; // anything the picture leaves transparent counts as neither paper nor ink
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let ink = 0;
    for (let index = 0; index < data.length; index += 4) {
      if (data[index]! + data[index + 1]! + data[index + 2]! < 3 * 110) ink += 1;
    }
    return { error: null, width: canvas.width, height: canvas.height, ink: ink / (data.length / 4) };
  }, source);
}

describe('the pictures of the docs in Chromium', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const pictures = readdirSync(DIR).filter((name) => name.endsWith('.svg'));

  it('are there: five SVG files', () => {
    expect(pictures).toHaveLength(5);
  });

  it.each(pictures)('%s loads, has a size and draws text and lines (at least 1% ink)', async (name) => {
    const result = await rendered(page, readFileSync(join(DIR, name), 'utf8'));
    expect(result.error).toBeNull();
    expect(result.width).toBeGreaterThan(300);
    expect(result.height).toBeGreaterThan(150);
    expect(result.ink).toBeGreaterThan(0.01);
  });

  it('fails on a malformed SVG and on an empty picture (the check can fail)', async () => {
    const svg = readFileSync(join(DIR, pictures[0]!), 'utf8');
    expect((await rendered(page, svg.replace('</svg>', ''))).error).toMatch(/failed to load/);
    const empty = svg.replace(/(<rect x="0" y="0"[^>]*\/>)[\s\S]*<\/svg>/, '$1\n</svg>');
    const result = await rendered(page, empty);
    expect(result.error).toBeNull();
    expect(result.ink).toBeLessThan(0.01);
  });
});
