import { IDLE_CLIENT_REFERENCE } from '../../bench/client/idle-client';
import type { Spread } from '../../bench/harness/stats';
import { clientRows, fanOutRows, freeConsumeRows, wireGoalRows } from '../../bench/rows';

// Figures are made up: these tests pin the goals of issue 11 and the verdicts
// the bench prints at their edges, never a measured speed.
const spread = (median: number): Spread => ({ median, p95: median * 2 });
const comparison = (ratio: number) => ({ library: spread(ratio), raw: spread(1), ratio });
const verdicts = (rows: ReadonlyArray<{ readonly met: boolean | null }>) => rows.map((row) => row.met);

describe('npm run bench: the goals of issue 11 and their verdicts', () => {
  test('consume() at most 1.10x (aim 1.05x) and getUsage() at most 1.15x (aim 1.10x) of raw fetch', () => {
    const met = wireGoalRows(comparison(1.1), comparison(1.15));
    expect(met.map((row) => row.goal)).toEqual(['<= 1.10x (aim 1.05x)', '', '<= 1.15x (aim 1.10x)', '']);
    expect(verdicts(met)).toEqual([true, null, true, null]);
    expect(verdicts(wireGoalRows(comparison(1.11), comparison(1.16)))).toEqual([false, null, false, null]);
  });

  test('one change to 10,000 usage$ subscribers: at most 2x a bare BehaviorSubject', () => {
    const fan = (ratio: number) => ({
      subscribers: 10_000,
      deliveryMs: ratio,
      baselineDeliveryMs: 1,
      ratio,
      wholeCallExtraMs: ratio,
      baselineWholeCallMs: 1,
    });
    expect(verdicts(fanOutRows(fan(2)))).toEqual([true, null]);
    expect(verdicts(fanOutRows(fan(2.01)))).toEqual([false, null]);
    expect(fanOutRows(fan(2))[0]?.figure).toContain('10,000 usage$ subscribers');
  });

  test('a free-period consume() allocates nothing beyond the await of a settled promise (1 B of noise), and at most 200 B alone', () => {
    const free = (bytes: number, alone = 0) => ({
      opsPerSec: 1,
      baselineOpsPerSec: 1,
      ratio: 1,
      bytesPerCall: bytes,
      baselineBytesPerCall: 203,
      bytesPerCallAlone: alone,
    });
    expect(verdicts(freeConsumeRows(free(204)))).toEqual([null, true, true]);
    expect(verdicts(freeConsumeRows(free(205)))).toEqual([null, false, true]);
    expect(verdicts(freeConsumeRows(free(203, 200)))).toEqual([null, true, true]);
    expect(verdicts(freeConsumeRows(free(203, 201)))).toEqual([null, true, false]);
  });

  test('an idle client after getUsage() retains at most a third of the dated reference; without gc() it is not met', () => {
    const create = { microsPerCall: 10, retainedBytes: 1_000 };
    const idle = (bytes: number) => ({
      clients: 10,
      bytesPerClient: bytes,
      ratio: bytes / IDLE_CLIENT_REFERENCE.bytes,
    });
    expect(IDLE_CLIENT_REFERENCE.measured).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const third = IDLE_CLIENT_REFERENCE.bytes / 3;
    expect(verdicts(clientRows(create, idle(third)))).toEqual([null, null, true]);
    expect(verdicts(clientRows(create, idle(third + 1)))).toEqual([null, null, false]);
    const noGc = clientRows(create, idle(NaN));
    expect(verdicts(noGc)[2]).toBe(false);
    expect(noGc[2]?.figure).toContain('no --expose-gc');
  });
});
