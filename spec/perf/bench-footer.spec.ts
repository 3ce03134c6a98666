import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MISSED_GOALS, missedGoalsFooter } from '../../bench/main';

const performanceDoc = readFileSync(join(__dirname, '../../docs/performance.md'), 'utf8');

describe('npm run bench: where a NO row is explained', () => {
  test('the footer under the table names docs/performance.md and its section', () => {
    expect(missedGoalsFooter(4)).toBe(
      `met NO (4 rows): a goal missed on this run; why, and what it would take, is in ${MISSED_GOALS}.`,
    );
    expect(MISSED_GOALS).toMatch(/^docs\/performance\.md, section "(.+)"$/);
  });

  test('that section exists in docs/performance.md and covers every goal the bench can mark NO', () => {
    const title = /section "(.+)"$/.exec(MISSED_GOALS)?.[1] ?? '';
    const start = performanceDoc.indexOf(`\n## ${title}\n`);
    expect(start).toBeGreaterThan(0);
    const section = performanceDoc.slice(start);
    const goals = ['Requests', 'check()', 'Wire overhead', 'Size', 'heap growth'];
    // Issue 11's goals.
    goals.push('Free-period consume()', 'Fan-out', 'idle client after getUsage()');
    for (const goal of goals) expect(section).toContain(goal);
  });
});
