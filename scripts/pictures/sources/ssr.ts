import { arrow, band, box, text, type Picture } from '../svg';

// The server-rendering hand-off, left to right.
export const ssr: Picture = {
  name: 'ssr',
  width: 820,
  height: 300,
  title: 'Server rendering: snapshot() to bootstrap',
  alt:
    "On the server, per request, a client made with the user's headers awaits getUsage(), then billing.snapshot() gives " +
    'plain JSON with no header value. The page carries that JSON. In the browser, createClient({ bootstrap }) starts from ' +
    'it: the first paint shows the quota, with getStatus().loaded true, and sends no request for it; the next answer ' +
    'replaces it. Without a bootstrap, render loading, never a refusal.',
  shapes: [
    band(12, 56, 200, 140, 'server'),
    text(24, 72, ['Server, per request'], { anchor: 'start', size: 12, bold: true }),
    band(416, 56, 392, 140, 'browser'),
    text(428, 72, ['Browser'], { anchor: 'start', size: 12, bold: true }),
    text(410, 28, ['One quota, fetched once: on the server, with the user’s credentials'], { bold: true }),
    box(24, 104, 176, 64, ['await getUsage()', 'billing.snapshot()'], 'server'),
    arrow([
      [200, 136],
      [226, 136],
    ]),
    box(228, 104, 170, 64, ['JSON in the page', '{ v: 1, usage, … }'], 'note'),
    arrow([
      [398, 136],
      [428, 136],
    ]),
    box(430, 104, 170, 64, ['createClient({', '  bootstrap })'], 'browser'),
    arrow([
      [600, 136],
      [624, 136],
    ]),
    box(626, 104, 170, 64, ['First paint: the quota', 'no request'], 'free'),
    text(112, 222, ['The token stays here:', 'no header value in the JSON'], { size: 12 }),
    text(613, 222, ['getStatus().loaded is true at once;', 'the next answer replaces the snapshot'], { size: 12 }),
    box(
      24,
      252,
      772,
      34,
      ['Without a bootstrap the server has no quota: render “loading”, never check()’s refusal.'],
      'note',
      { size: 12 },
    ),
  ],
};
