import type { RequestRecord } from '../../lib/testing';

/** One step of the walk-through as the table prints it. */
export interface StepReport {
  readonly title: string;
  /** `check()` just before the step's call. */
  readonly verdict: string;
  /** `preview()` just before the step's call, as the playground page words it. */
  readonly preview: string;
  /** `getStatus()` just after the step's call, as the playground page words it. */
  readonly status: string;
  readonly outcome: string;
  readonly requests: readonly string[];
  /** What did not go as the spec says; empty when the step behaved. */
  readonly problems: readonly string[];
}

/** `POST /ai/v5/service/free_trial {external_id: "…"} → 200 code 20101`, as read from the backend's log. */
export function describeRequest(record: RequestRecord): string {
  const query = new URLSearchParams(record.query).toString();
  const target = query === '' ? record.path : `${record.path}?${query}`;
  const body = record.body as { external_id?: unknown } | undefined;
  const id = typeof body?.external_id === 'string' ? ` external_id=${body.external_id}` : '';
  const code = record.code === undefined ? '' : ` code ${record.code}`;
  return `${record.method} ${target}${id} → ${record.status ?? 'no answer'}${code}`;
}

const COLUMNS = [
  '#',
  'step',
  'check() before',
  'preview() before',
  'outcome',
  'status after',
  'requests on the wire',
  'ok',
] as const;

/** A plain-text table, one line per request, readable in any terminal. */
export function renderTable(steps: readonly StepReport[]): string {
  const rows: string[][] = [];
  steps.forEach((step, index) => {
    const requests = step.requests.length === 0 ? ['(none)'] : step.requests;
    requests.forEach((request, line) => {
      const first = line === 0;
      rows.push([
        first ? String(index + 1) : '',
        first ? step.title : '',
        first ? step.verdict : '',
        first ? step.preview : '',
        first ? step.outcome : '',
        first ? step.status : '',
        request,
        first ? (step.problems.length === 0 ? 'yes' : 'NO') : '',
      ]);
    });
  });
  const widths = COLUMNS.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ');
  const rule = widths.map((width) => '-'.repeat(width)).join('-+-');
  return [line(COLUMNS), rule, ...rows.map(line)].join('\n');
}
