import { cpus } from 'node:os';
import { measureCheck } from './cpu/check';
import { measureFreeConsume, measureHeapGrowth } from './cpu/free-consume';
import { measureEconomy } from './economy/sessions';
import { round } from './harness/stats';
import { renderTable, type Row } from './harness/table';
import { measureSizeRows } from './size';
import { measureLayers } from './wire/breakdown';
import { measureParallelism, measureWire, type Comparison } from './wire/overhead';

const MB = 1024 * 1024;

function wireRows(figure: string, comparison: Comparison, goal: string, met: boolean | null): Row[] {
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

/** Runs every figure of issue 5 in this one process and returns the rows of the table. */
export async function runAll(root: string, log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  log('request economy...');
  for (const row of await measureEconomy()) {
    rows.push({
      section: 'requests',
      figure: row.session,
      value: row.requests,
      unit: 'req',
      baseline: row.minimum,
      ratio: round(row.requests / Math.max(1, row.minimum), 3),
      goal: '= minimum',
      met: row.requests === row.minimum,
    });
  }
  log('size...');
  rows.push(...(await measureSizeRows(root)));
  log('check()...');
  const check = await measureCheck();
  rows.push(
    {
      section: 'check()',
      figure: 'ops/s vs inline decision',
      value: round(check.opsPerSec),
      unit: 'op/s',
      baseline: round(check.baselineOpsPerSec),
      ratio: round(check.ratio, 3),
      goal: '>= 0.50x',
      met: check.ratio >= 0.5,
    },
    {
      section: 'check()',
      figure: 'heap bytes per call',
      value: round(check.bytesPerCall, 1),
      unit: 'B',
      baseline: round(check.baselineBytesPerCall, 1),
      goal: '<= baseline',
      met: check.bytesPerCall <= check.baselineBytesPerCall,
    },
    {
      section: 'check()',
      figure: 'heap bytes per call, integer clock',
      value: round(check.bytesPerCallIntegerClock, 1),
      unit: 'B',
      goal: '0',
      met: check.bytesPerCallIntegerClock < 1,
    },
  );
  log('free-period consume()...');
  const free = await measureFreeConsume();
  rows.push(
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
      figure: 'heap bytes per call',
      value: round(free.bytesPerCall),
      unit: 'B',
      goal: '(reported)',
      met: null,
    },
  );
  log('over the wire (loopback, A/B alternated)...');
  const wire = await measureWire();
  rows.push(
    ...wireRows('consume() vs raw POST', wire.consume, '<= 1.10x', wire.consume.ratio <= 1.1),
    ...wireRows('getUsage() vs 2 raw GETs in parallel', wire.getUsage, '<= 1.10x', wire.getUsage.ratio <= 1.1),
    ...wireRows('getUsage() vs 2 raw GETs in sequence', wire.getUsageVsSequential, '(loopback)', null),
  );
  log('parallelism with backend latency...');
  const parallelism = await measureParallelism();
  rows.push(
    ...wireRows(
      `getUsage() vs 2 raw GETs in sequence, ${parallelism.latencyMs} ms latency`,
      parallelism.getUsage,
      '~0.5x',
      parallelism.getUsage.ratio < 0.6,
    ),
  );
  log("where a consume's time goes (layers)...");
  const layers = await measureLayers();
  const rawMs = layers[0]?.medianMs ?? NaN;
  for (const layer of layers) {
    rows.push({
      section: 'wire layers',
      figure: layer.layer,
      value: round(layer.medianMs, 3),
      unit: 'ms',
      baseline: round(rawMs, 3),
      ratio: round(layer.medianMs / rawMs, 3),
      goal: '(where time goes)',
      met: null,
    });
  }
  log('heap growth over 1,000,000 free-period consumes...');
  const heap = await measureHeapGrowth();
  rows.push({
    section: 'idle',
    figure: `heap growth, ${heap.consumes.toLocaleString('en-US')} free consumes${heap.gcExposed ? '' : ' (no --expose-gc!)'}`,
    value: round(heap.growthBytes / MB, 3),
    unit: 'MB',
    goal: '< 1 MB',
    met: heap.gcExposed && heap.growthBytes < MB,
  });
  return rows;
}

/** Where each goal the table marks `NO` is explained. */
export const MISSED_GOALS = 'docs/performance.md, section "Where the time and bytes go (missed goals)"';

/** The line under the table when some goal was missed. */
export function missedGoalsFooter(missed: number): string {
  return `met NO (${missed} ${missed === 1 ? 'row' : 'rows'}): a goal missed on this run; why, and what it would take, is in ${MISSED_GOALS}.`;
}

/** Where the figures were taken: absolute times only mean something next to this. */
export function machine(): { node: string; cpu: string; cores: number } {
  return { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length };
}

/** `npm run bench [-- --json]`. */
export async function main(root: string, argv: readonly string[]): Promise<void> {
  const json = argv.includes('--json');
  const started = performance.now();
  const rows = await runAll(root, (line) => process.stderr.write(`${line}\n`));
  const seconds = round((performance.now() - started) / 1000, 1);
  const missed = rows.filter((row) => row.met === false).length;
  if (json) {
    const report = { machine: machine(), seconds, rows, ...(missed > 0 ? { missedGoals: MISSED_GOALS } : {}) };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const { node, cpu, cores } = machine();
    const footer = missed > 0 ? `\n${missedGoalsFooter(missed)}\n` : '';
    process.stdout.write(`Node ${node}, ${cpu} (${cores} cores), ${seconds} s\n\n${renderTable(rows)}\n${footer}`);
  }
}
