import { arrow, band, dot, line, text, type Picture } from '../svg';

// A free-period timeline: 18 px per second of the scheduler's clock, t = 0 at x = 60.
const x = (seconds: number): number => 60 + seconds * 18;
const ticks = [0, 5, 10, 15, 20, 25, 30, 35, 40];

/** A moment on the timeline: a dot, a dashed leader and its words in one of two rows. */
function moment(seconds: number, row: 0 | 1, lines: readonly string[], tone: 'free' | 'credit' | 'plain'): string[] {
  const y = row === 0 ? 222 : 272;
  return [
    line(x(seconds), 180, x(seconds), y - 16, { dashed: true }),
    dot(x(seconds), 150, tone),
    text(x(seconds), y, lines, { size: 12, anchor: seconds === 0 ? 'start' : 'middle' }),
  ];
}

export const freePeriod: Picture = {
  name: 'free-period',
  width: 820,
  height: 350,
  title: 'The 30 second free period',
  alt:
    'A timeline in seconds of the scheduler clock. At t = 0 a charged consume (a free use or credits) starts a 30 second ' +
    'free period, and freePeriodRemaining$ counts down 30, 29, and so on to 0. Consumes at t = 8 and t = 21 are free: no ' +
    'request is sent, and they do not extend the period. At t = 30 the period ends and the countdown shows 0. A consume ' +
    'at t = 36 is charged again and starts a new 30 second period. A refused, blacklisted, failed or aborted consume ' +
    'starts no period.',
  shapes: [
    band(x(0), 108, x(30) - x(0), 56, 'free'),
    text(x(15), 122, ['free period: every consume() is free, sends no request'], { size: 12 }),
    text(x(0), 64, ['freePeriodRemaining$ (whole seconds left, once a second):'], { anchor: 'start', size: 12 }),
    ...[30, 25, 20, 15, 10, 5, 0].map((left, index) => text(x(index * 5), 90, [String(left)], { bold: true })),
    arrow([
      [40, 150],
      [800, 150],
    ]),
    ...ticks.flatMap((seconds) => [
      line(x(seconds), 145, x(seconds), 155),
      text(x(seconds), 172, [`${seconds} s`], { size: 11 }),
    ]),
    text(800, 40, ["seconds of the scheduler's now() (performance.now() by default)"], { anchor: 'end', size: 11 }),
    ...moment(0, 0, ['t = 0: a charged consume', '(a free use or credits)'], 'credit'),
    ...moment(8, 1, ['t = 8: free, no request'], 'free'),
    ...moment(21, 0, ['t = 21: free, no request;', 'the period is not extended'], 'free'),
    ...moment(30, 1, ['t = 30: the period ends', '(the countdown shows 0)'], 'plain'),
    ...moment(36, 0, ['t = 36: charged again,', 'a new 30 s period'], 'credit'),
    text(
      x(0) - 40,
      322,
      ['Starts no period: a refused consume (20101), a blacklisted one (20102), a failed or aborted one.'],
      {
        anchor: 'start',
        size: 12,
      },
    ),
  ],
};
