import { arrow, band, box, diamond, text, type Picture } from '../svg';

// The decision of one consume, as docs/billing-rules.md tells it.
export const decide: Picture = {
  name: 'decide',
  width: 820,
  height: 560,
  title: 'How one consume() is decided',
  alt:
    'How one consume() is decided. In a free period (30 seconds after a charged consume) it is free: it resolves at once, ' +
    'sends no request and charges nothing. Otherwise it is sent to the backend, which charges one free use if any is left, ' +
    'else creditsPerUse credits if the balance covers them (then the client refreshes the balance), else refuses with ' +
    'insufficient_credits (code 20101) and charges nothing. A free use or a credit charge starts a 30 second free period; ' +
    'a refused, blacklisted or failed consume starts none.',
  shapes: [
    band(12, 240, 796, 306, 'note'),
    text(796, 256, ['decided by the backend, from its own count and balance'], { anchor: 'end', size: 12 }),
    box(100, 16, 140, 36, ['consume()'], 'plain', { bold: true }),
    arrow([
      [170, 52],
      [170, 73],
    ]),
    diamond(170, 118, 220, 90, ['In a free period?', '(30 s after a charge)']),
    arrow(
      [
        [280, 118],
        [330, 118],
      ],
      'yes',
    ),
    box(330, 92, 450, 52, ['Free: resolves at once, no request, nothing charged', 'reason: free_period'], 'free'),
    arrow(
      [
        [170, 163],
        [170, 190],
      ],
      'no',
      { labelAt: [180, 176], anchor: 'start' },
    ),
    box(70, 190, 200, 36, ['POST to the backend'], 'plain'),
    arrow([
      [170, 226],
      [170, 252],
    ]),
    diamond(170, 292, 220, 80, ['A free use left?', '(free_remaining > 0)']),
    arrow(
      [
        [280, 292],
        [330, 292],
      ],
      'yes',
    ),
    box(330, 266, 450, 52, ['One free use charged (reason: free_count)', 'starts a 30 s free period'], 'free'),
    arrow(
      [
        [170, 332],
        [170, 362],
      ],
      'no',
      { labelAt: [180, 347], anchor: 'start' },
    ),
    diamond(170, 402, 220, 80, ['Enough credits?', '(balance ≥ creditsPerUse)']),
    arrow(
      [
        [280, 402],
        [330, 402],
      ],
      'yes',
    ),
    box(
      330,
      376,
      450,
      52,
      ['creditsPerUse credits charged (reason: credits)', 'balance refreshed; starts a 30 s free period'],
      'credit',
    ),
    arrow(
      [
        [170, 442],
        [170, 470],
      ],
      'no',
      { labelAt: [180, 456], anchor: 'start' },
    ),
    box(
      20,
      470,
      300,
      62,
      ['Refused: insufficient_credits', 'backend code 20101, nothing charged', 'no free period'],
      'refused',
    ),
    text(
      340,
      501,
      [
        'A blacklisted answer (20102) resolves with isBlacklisted: true;',
        'like a failed consume, it starts no free period.',
      ],
      { anchor: 'start', size: 12 },
    ),
  ],
};
