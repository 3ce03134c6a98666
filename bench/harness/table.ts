/** One printed line of the benchmark: a figure, what it is compared with, and its goal. */
export interface Row {
  readonly section: string;
  readonly figure: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline?: number;
  readonly ratio?: number;
  readonly goal: string;
  /** `null` when the row has no goal of its own (context figures). */
  readonly met: boolean | null;
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 10_000) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 100) return value.toFixed(0);
  return value.toFixed(value % 1 === 0 ? 0 : 2);
}

/** A Markdown table, so the output pastes into docs/performance.md as is. */
export function renderTable(rows: readonly Row[]): string {
  const header = ['section', 'figure', 'value', 'baseline', 'ratio', 'goal', 'met'];
  const lines = rows.map((row) => [
    row.section,
    row.figure,
    `${format(row.value)} ${row.unit}`.trim(),
    row.baseline === undefined ? '' : `${format(row.baseline)} ${row.unit}`.trim(),
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}x`,
    row.goal,
    row.met === null ? '' : row.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => (line[i] ?? '').length)));
  const print = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [print(header), print(widths.map((w) => '-'.repeat(w))), ...lines.map(print)].join('\n');
}
