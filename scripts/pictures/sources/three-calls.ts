import { arrow, box, line, text, type Picture } from '../svg';

// The three backend calls as a sequence: lifelines of the app, the client and the backend.
const APP = 90;
const CLIENT = 300;
const BACKEND = 640;

const call = (y: number, from: number, to: number, label: string, answer = false): string =>
  arrow(
    [
      [from, y],
      [to + (to > from ? -2 : 2), y],
    ],
    label,
    { dashed: answer, labelAt: [(from + to) / 2, y - 9] },
  );

export const threeCalls: Picture = {
  name: 'three-calls',
  width: 820,
  height: 440,
  title: 'The three backend calls',
  alt:
    'A sequence between your app, the unified-billing client and the backend. getUsage() sends two GETs in parallel: ' +
    'GET /ai/v5/service/free_trial/count?module=generator_<appKey>, answered with free_remaining, free_total and ' +
    'credits_per_use, and GET /ai/v1/credit/getBalance, answered with the balance; the app then gets the usage. ' +
    'consume() sends POST /ai/v5/service/free_trial with the module and the external_id; the answer says is_credit: true, ' +
    'so the client sends GET /ai/v1/credit/getBalance again before the consume resolves with isCredit: true.',
  shapes: [
    box(APP - 70, 16, 140, 36, ['Your app'], 'browser', { bold: true }),
    box(CLIENT - 90, 16, 180, 36, ['unified-billing client'], 'plain', { bold: true }),
    box(BACKEND - 80, 16, 160, 36, ['Your backend'], 'server', { bold: true }),
    line(APP, 52, APP, 424, { dashed: true }),
    line(CLIENT, 52, CLIENT, 424, { dashed: true }),
    line(BACKEND, 52, BACKEND, 424, { dashed: true }),
    call(84, APP, CLIENT, 'getUsage()'),
    call(114, CLIENT, BACKEND, 'GET /ai/v5/service/free_trial/count?module=…'),
    call(140, CLIENT, BACKEND, 'GET /ai/v1/credit/getBalance'),
    line(BACKEND + 14, 106, BACKEND + 14, 146),
    text(BACKEND + 22, 126, ['in parallel'], { anchor: 'start', size: 12 }),
    call(172, BACKEND, CLIENT, 'free_remaining, free_total, credits_per_use', true),
    call(198, BACKEND, CLIENT, 'balance', true),
    call(226, CLIENT, APP, 'UsageInfo (usage$ emits)', true),
    call(266, APP, CLIENT, 'consume()'),
    call(296, CLIENT, BACKEND, 'POST /ai/v5/service/free_trial { module, external_id }'),
    call(326, BACKEND, CLIENT, 'code 0: is_credit: true, free_remaining', true),
    call(356, CLIENT, BACKEND, 'GET /ai/v1/credit/getBalance (after a credit charge)'),
    call(384, BACKEND, CLIENT, 'balance', true),
    call(412, CLIENT, APP, 'result: isCredit true', true),
  ],
};
