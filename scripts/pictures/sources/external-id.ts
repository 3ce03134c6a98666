import { arrow, band, box, line, text, type Picture } from '../svg';

// One externalId across a retry, a reload and another tab.
const ROWS = [
  {
    label: 'A retry',
    first: ['POST 7f3c… gets no answer', '(the backend may have charged)'],
    second: ['POST 7f3c… again', 'client retry, or error.externalId'],
  },
  {
    label: 'A reload (reloadSafe)',
    first: ['POST 7f3c…, then the page reloads', 'the journal keeps 7f3c…'],
    second: ['replayed: POST 7f3c…', 'outcome on recovered$'],
  },
  {
    label: 'Another tab (tabSync)',
    first: ['tab A: POST 7f3c…, tab A closes', 'its id stays open'],
    second: ['tab B sends POST 7f3c… again', 'outcome on recovered$'],
  },
] as const;

const top = (index: number): number => 72 + index * 90;

export const externalId: Picture = {
  name: 'external-id',
  width: 820,
  height: 392,
  title: 'One externalId per user action',
  alt:
    'One click on Export gets one externalId, here 7f3c…. A retry, a reload and another tab all send that same id: ' +
    'after a POST with no answer, the client or the app retries with error.externalId; after a reload, reloadSafe ' +
    'replays the POST from its journal and reports the outcome on recovered$; when a tab closes before the answer, ' +
    'another tab with tabSync sends the id again and reports it on recovered$. The backend is idempotent on ' +
    'external_id: it charges once and answers the same id with the first answer. A new click gets a new id.',
  shapes: [
    box(16, 16, 360, 40, ['One click on Export: externalId 7f3c…'], 'plain', { bold: true }),
    line(36, 56, 36, top(2) + 49),
    ...ROWS.flatMap((row, index) => [
      band(12 + 40, top(index), 600, 80, 'note'),
      text(64, top(index) + 14, [row.label], { anchor: 'start', size: 12, bold: true }),
      arrow([
        [36, top(index) + 49],
        [62, top(index) + 49],
      ]),
      box(64, top(index) + 26, 260, 46, row.first, 'plain', { size: 12 }),
      arrow([
        [324, top(index) + 49],
        [354, top(index) + 49],
      ]),
      box(356, top(index) + 26, 260, 46, row.second, 'credit', { size: 12 }),
      arrow([
        [616, top(index) + 49],
        [664, top(index) + 49],
      ]),
    ]),
    box(
      666,
      72,
      142,
      260,
      [
        'Your backend',
        'idempotent on',
        'external_id:',
        'charged once;',
        'the same id gets',
        'the first answer',
        'again',
      ],
      'server',
    ),
    text(
      16,
      364,
      [
        'A new click gets a new id. An id made from the document (export-<docId>) would make every later',
        'export of it free.',
      ],
      {
        anchor: 'start',
        size: 12,
      },
    ),
  ],
};
