import { IDLE_CLIENT_REFERENCE, type IdleClientFigures } from './client/idle-client';
import type { CreateClientFigures } from './client/create-client';
import type { FanOutFigures } from './client/fan-out';
import type { CheckFigures } from './cpu/check';
import type { FreeConsumeFigures } from './cpu/free-consume';
import { round } from './harness/stats';
import type { Row } from './harness/table';
import type { Comparison } from './wire/overhead';

/** The goals of issue 11 that `npm run bench` judges (and of issue 5 still standing). */
export const GOALS = {
  checkRatio: 0.5,
  fanOutRatio: 2,
  idleClientBytes: IDLE_CLIENT_REFERENCE.bytes / 3,
  consumeWireRatio: 1.1,
  consumeWireAim: 1.05,
  getUsageWireRatio: 1.15,
  getUsageWireAim: 1.1,
} as const;

export function checkRows(check: CheckFigures): Row[] {
  return [
    {
      section: 'check()',
      figure: 'ops/s vs hand-written check (same scheduler.now(), frozen results)',
      value: round(check.opsPerSec),
      unit: 'op/s',
      baseline: round(check.baselineOpsPerSec),
      ratio: round(check.ratio, 3),
      goal: `>= ${GOALS.checkRatio.toFixed(2)}x`,
      met: check.ratio >= GOALS.checkRatio,
    },
    {
      section: 'check()',
      figure: 'heap bytes per call',
      value: round(check.bytesPerCall, 1),
      unit: 'B',
      baseline: round(check.baselineBytesPerCall, 1),
      goal: '<= baseline + 1 B',
      met: check.bytesPerCall <= check.baselineBytesPerCall + 1,
    },
    {
      section: 'check()',
      figure: 'heap bytes per call, integer clock',
      value: round(check.bytesPerCallIntegerClock, 1),
      unit: 'B',
      goal: '0',
      met: check.bytesPerCallIntegerClock < 1,
    },
  ];
}

export function freeConsumeRows(free: FreeConsumeFigures): Row[] {
  return [
    {
      section: 'consume() free',
      figure: 'ops/s vs await of a resolved promise',
      value: round(free.opsPerSec),
      unit: 'op/s',
      baseline: round(free.baselineOpsPerSec),
      ratio: round(free.ratio, 4),
      goal: '(reported)',
      met: null,
    },
    {
      section: 'consume() free',
      figure: 'heap bytes per awaited call (baseline: awaiting a settled promise)',
      value: round(free.bytesPerCall),
      unit: 'B',
      baseline: round(free.baselineBytesPerCall),
      goal: '<= baseline + 1 B',
      // Nothing of its own: what is left is the await's, whatever the promise awaited.
      met: free.bytesPerCall <= free.baselineBytesPerCall + 1,
    },
    {
      section: 'consume() free',
      figure: "heap bytes per call, not awaited (the consume's own)",
      value: round(free.bytesPerCallAlone),
      unit: 'B',
      goal: '<= 200 B',
      met: free.bytesPerCallAlone <= 200,
    },
  ];
}

export function fanOutRows(fan: FanOutFigures): Row[] {
  const n = fan.subscribers.toLocaleString('en-US');
  return [
    {
      section: 'fan-out',
      figure: `one change to ${n} usage$ subscribers vs BehaviorSubject, first to last callback`,
      value: round(fan.deliveryMs, 3),
      unit: 'ms',
      baseline: round(fan.baselineDeliveryMs, 3),
      ratio: round(fan.ratio, 2),
      goal: `<= ${GOALS.fanOutRatio.toFixed(2)}x`,
      met: fan.ratio <= GOALS.fanOutRatio,
    },
    {
      section: 'fan-out',
      figure: `refreshCredits() with ${n} subscribers minus with none vs whole next()`,
      value: round(fan.wholeCallExtraMs, 3),
      unit: 'ms',
      baseline: round(fan.baselineWholeCallMs, 3),
      ratio: round(fan.wholeCallExtraMs / fan.baselineWholeCallMs, 2),
      goal: '(cross-check)',
      met: null,
    },
  ];
}

export function clientRows(create: CreateClientFigures, idle: IdleClientFigures): Row[] {
  const gcMissing = Number.isNaN(idle.bytesPerClient) ? ' (no --expose-gc!)' : '';
  return [
    {
      section: 'client',
      figure: 'createClient() per call',
      value: round(create.microsPerCall, 1),
      unit: 'µs',
      goal: '(reported)',
      met: null,
    },
    {
      section: 'client',
      figure: `fresh client, retained heap${gcMissing}`,
      value: round(create.retainedBytes),
      unit: 'B',
      goal: '(reported)',
      met: null,
    },
    {
      section: 'client',
      figure: `idle client after getUsage(), retained heap (baseline: ${IDLE_CLIENT_REFERENCE.measured})${gcMissing}`,
      value: round(idle.bytesPerClient),
      unit: 'B',
      baseline: IDLE_CLIENT_REFERENCE.bytes,
      ratio: round(idle.ratio, 3),
      goal: '<= 0.33x',
      met: idle.bytesPerClient <= GOALS.idleClientBytes,
    },
  ];
}

/** Context rows of one comparison: median and p95, no goal. */
export function wireContext(figure: string, comparison: Comparison, goal = '', met: boolean | null = null): Row[] {
  const { library, raw, ratio } = comparison;
  return [
    {
      section: 'wire',
      figure: `${figure}, median`,
      value: round(library.median, 3),
      unit: 'ms',
      baseline: round(raw.median, 3),
      ratio: round(ratio, 3),
      goal,
      met,
    },
    {
      section: 'wire',
      figure: `${figure}, p95`,
      value: round(library.p95, 3),
      unit: 'ms',
      baseline: round(raw.p95, 3),
      ratio: round(library.p95 / raw.p95, 3),
      goal: '',
      met: null,
    },
  ];
}

function wireGoal(figure: string, comparison: Comparison, goal: number, aim: number): Row[] {
  const text = `<= ${goal.toFixed(2)}x (aim ${aim.toFixed(2)}x)`;
  return wireContext(figure, comparison, text, comparison.ratio <= goal);
}

export function wireGoalRows(consume: Comparison, getUsage: Comparison): Row[] {
  return [
    ...wireGoal('consume() vs raw fetch POST', consume, GOALS.consumeWireRatio, GOALS.consumeWireAim),
    ...wireGoal('getUsage() vs 2 raw GETs in parallel', getUsage, GOALS.getUsageWireRatio, GOALS.getUsageWireAim),
  ];
}
