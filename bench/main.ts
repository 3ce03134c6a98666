import { cpus } from 'node:os';
import { measureCreateClient } from './client/create-client';
import { measureFanOut } from './client/fan-out';
import { measureIdleClient } from './client/idle-client';
import { measureWhenHeld } from './client/when-held';
import { measureCheck } from './cpu/check';
import { measureFreeConsume, measureHeapGrowth } from './cpu/free-consume';
import { measureEconomy } from './economy/sessions';
import { round } from './harness/stats';
import { renderTable, type Row } from './harness/table';
import { measureSizeRows } from './size';
import { measureLayers } from './wire/breakdown';
import { measureParallelism, measureWire } from './wire/overhead';
import { checkRows, clientRows, fanOutRows, freeConsumeRows, wireContext, wireGoalRows } from './rows';

const MB = 1024 * 1024;

/** What `--quick` changes: fewer iterations everywhere, for CI's smoke run. */
export interface RunOptions {
  readonly quick?: boolean;
}

/**
 * Runs every figure of issues 5 and 11 in this one process and returns the rows
 * of the table; `quick` takes fewer samples (figures noisier, same rows).
 */
export async function runAll(
  root: string,
  log: (line: string) => void,
  { quick = false }: RunOptions = {},
): Promise<Row[]> {
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
  rows.push(...checkRows(await measureCheck({ quick })));
  log('free-period consume()...');
  rows.push(...freeConsumeRows(await measureFreeConsume({ quick })));
  log('fan-out of one change to 10,000 usage$ subscribers...');
  rows.push(...fanOutRows(await measureFanOut({ quick })));
  log('createClient() and idle client heap...');
  rows.push(...clientRows(await measureCreateClient({ quick }), await measureIdleClient({ quick })));
  log('over the wire (loopback, A/B alternated)...');
  const wire = await measureWire({ quick });
  rows.push(
    ...wireGoalRows(wire.consume, wire.getUsage),
    ...wireContext('getUsage() vs 2 raw GETs in sequence', wire.getUsageVsSequential, '(loopback)'),
    ...wireContext('control: raw POST vs raw POST (noise floor)', wire.control, '(~1.00x)'),
  );
  log('parallelism with backend latency...');
  const parallelism = await measureParallelism({ quick });
  rows.push(
    ...wireContext(
      `getUsage() vs 2 raw GETs in sequence, ${parallelism.latencyMs} ms latency`,
      parallelism.getUsage,
      '~0.5x',
      parallelism.getUsage.ratio < 0.6,
    ),
  );
  log("where a consume's time goes (layers)...");
  const layers = await measureLayers({ quick });
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
  const consumes = quick ? 100_000 : 1_000_000;
  log(`heap growth over ${consumes.toLocaleString('en-US')} free-period consumes...`);
  const heap = await measureHeapGrowth(consumes);
  rows.push({
    section: 'idle',
    figure: `heap growth, ${heap.consumes.toLocaleString('en-US')} free consumes${heap.gcExposed ? '' : ' (no --expose-gc!)'}`,
    value: round(heap.growthBytes / MB, 3),
    unit: 'MB',
    goal: '< 1 MB',
    met: heap.gcExposed && heap.growthBytes < MB,
  });
  const values = quick ? 10_000 : 100_000;
  log(`heap kept by ${values.toLocaleString('en-US')} refetchOn({ when }) values while a usage fetch is held...`);
  const when = await measureWhenHeld({ values });
  rows.push({
    section: 'idle',
    figure:
      `heap kept by ${values.toLocaleString('en-US')} when values while a fetch is held, then GET pairs sent ` +
      `(${when.requestsAfter})${Number.isNaN(when.growthBytes) ? ' (no --expose-gc!)' : ''}`,
    value: round(when.growthBytes / MB, 3),
    unit: 'MB',
    goal: '< 1 MB (was 183 MB)',
    met: when.growthBytes < MB && when.requestsAfter === 2,
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

/** `npm run bench [-- --json] [--quick]`. */
export async function main(root: string, argv: readonly string[]): Promise<void> {
  const json = argv.includes('--json');
  const quick = argv.includes('--quick');
  const started = performance.now();
  const rows = await runAll(root, (line) => process.stderr.write(`${line}\n`), { quick });
  const seconds = round((performance.now() - started) / 1000, 1);
  const missed = rows.filter((row) => row.met === false).length;
  if (json) {
    const report = {
      machine: machine(),
      seconds,
      ...(quick ? { quick } : {}),
      rows,
      ...(missed > 0 ? { missedGoals: MISSED_GOALS } : {}),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const { node, cpu, cores } = machine();
    const footer = missed > 0 ? `\n${missedGoalsFooter(missed)}\n` : '';
    const sampling = quick ? ', --quick (fewer samples)' : '';
    process.stdout.write(
      `Node ${node}, ${cpu} (${cores} cores), ${seconds} s${sampling}\n\n${renderTable(rows)}\n${footer}`,
    );
  }
}
