import type { Fault } from '../../lib/testing';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import { outcomeOf, type Expectation, type Scenario } from './harness';

const FREE_CHARGED = { freeRemaining: 1, isCredit: false, isBlacklisted: false };
const CACHED_AFTER_FREE = { freeRemaining: 1, creditsBalance: 10, inFreePeriod: true, freePeriodRemaining: 30 };
const CACHED_UNCHANGED = { freeRemaining: 2, creditsBalance: 10, inFreePeriod: false, freePeriodRemaining: 0 };

/** A consume that succeeds on the `attempts`-th POST, all with one id: one free charge. */
function chargedAfter(attempts: number, id: string, elapsedMs?: readonly [number, number]): Expectation {
  const expectation: Expectation = {
    outcome: { resolves: FREE_CHARGED },
    requests: { count: 0, balance: 0, consume: attempts },
    externalIds: Array.from({ length: attempts }, () => id),
    charges: ['free'],
    cached: CACHED_AFTER_FREE,
  };
  return elapsedMs === undefined ? expectation : { ...expectation, elapsedMs };
}

/** A consume refused on its single POST: nothing charged, cache as primed. */
function refused(id: string, rejects: Record<string, unknown>): Expectation {
  return {
    outcome: { rejects: { ...rejects, externalId: id } },
    requests: { count: 0, balance: 0, consume: 1 },
    externalIds: [id],
    cached: CACHED_UNCHANGED,
  };
}

function malformed(body: string, contentType?: string): () => ReadonlyArray<readonly [string, number, Fault]> {
  const fault: Fault =
    contentType === undefined ? { kind: 'malformed', body } : { kind: 'malformed', body, contentType };
  return () => [[P.consume, 1, fault]];
}

export const consumeScenarios: readonly Scenario[] = [
  {
    name: 'consume: connection reset before the backend applied the charge',
    id: 'op-reset-before',
    behaviour: 'retried with the same external_id; one charge; resolves',
    faults: () => [[P.consume, 1, { kind: 'drop' }]],
    expect: chargedAfter(2, 'op-reset-before'),
  },
  {
    name: 'consume: connection reset after the backend applied the charge',
    id: 'op-reset-after',
    behaviour: 'retried with the same external_id; the backend replays; one charge; resolves',
    faults: () => [[P.consume, 1, { kind: 'dropAfterApply' }]],
    expect: chargedAfter(2, 'op-reset-after'),
  },
  {
    name: 'consume: timeout after the backend applied the charge',
    id: 'op-timeout-after',
    behaviour: 'times out after timeoutMs, retried with the same external_id; replayed; one charge',
    options: { timeoutMs: 5_000 },
    act: async ({ h, id }) => {
      void h.wire.lose(P.consume);
      return outcomeOf(h.run(h.client.billing.consume({ externalId: id })));
    },
    expect: chargedAfter(2, 'op-timeout-after', [5_000, 5_250]),
  },
  {
    name: 'consume: 5xx then success',
    id: 'op-5xx-once',
    behaviour: 'retried after a backoff with the same external_id; one charge',
    faults: () => [[P.consume, 1, { kind: 'status', status: 503 }]],
    expect: chargedAfter(2, 'op-5xx-once', [0, 250]),
  },
  {
    name: 'consume: 5xx replayed until the retries run out',
    id: 'op-5xx-always',
    behaviour: '1 + retries POSTs with one external_id; rejects http 503 carrying externalId; nothing charged',
    faults: () => [[P.consume, 3, { kind: 'status', status: 503 }]],
    expect: {
      ...refused('op-5xx-always', { code: 'http', status: 503 }),
      requests: { count: 0, balance: 0, consume: 3 },
      externalIds: ['op-5xx-always', 'op-5xx-always', 'op-5xx-always'],
    },
  },
  {
    name: 'consume: 429 with Retry-After in seconds',
    id: 'op-429-seconds',
    behaviour: 'waits exactly Retry-After (7 s) before the retry; one charge',
    faults: () => [[P.consume, 1, { kind: 'status', status: 429, retryAfter: '7' }]],
    expect: chargedAfter(2, 'op-429-seconds', [7_000, 7_000]),
  },
  {
    name: 'consume: 429 with Retry-After as an HTTP date',
    id: 'op-429-date',
    behaviour: "waits until the date, measured against the response's Date header (5 s, to the second)",
    faults: () => [
      [P.consume, 1, { kind: 'status', status: 429, retryAfter: new Date(Date.now() + 5_000).toUTCString() }],
    ],
    expect: chargedAfter(2, 'op-429-date', [4_000, 5_000]),
  },
  {
    name: 'consume: 429 with a malformed Retry-After',
    id: 'op-429-malformed',
    behaviour: 'ignores the header and uses the normal backoff (< 250 ms); one charge',
    faults: () => [[P.consume, 1, { kind: 'status', status: 429, retryAfter: 'soon, maybe' }]],
    expect: chargedAfter(2, 'op-429-malformed', [0, 249]),
  },
  {
    name: 'consume: 429 with a huge Retry-After',
    id: 'op-429-huge',
    behaviour: 'clamps the wait to 30 s; one charge',
    faults: () => [[P.consume, 1, { kind: 'status', status: 429, retryAfter: '99999999' }]],
    expect: chargedAfter(2, 'op-429-huge', [30_000, 30_000]),
  },
  {
    name: 'consume: headers then a stalled body',
    id: 'op-stall',
    behaviour: 'the timeout covers the body: times out after timeoutMs, retried, one charge',
    options: { timeoutMs: 5_000 },
    faults: () => [[P.consume, 1, { kind: 'stall' }]],
    expect: chargedAfter(2, 'op-stall', [5_000, 5_250]),
  },
  {
    name: 'consume: an HTML page with status 200',
    id: 'op-html',
    behaviour: 'rejects decode, not retried, nothing charged, cache unchanged',
    faults: malformed('<!doctype html><html><body>Gateway login</body></html>', 'text/html'),
    expect: refused('op-html', { code: 'decode' }),
  },
  {
    name: 'consume: an empty body',
    id: 'op-empty',
    behaviour: 'rejects decode, not retried, cache unchanged',
    faults: malformed(''),
    expect: refused('op-empty', { code: 'decode' }),
  },
  {
    name: 'consume: truncated JSON',
    id: 'op-truncated',
    behaviour: 'rejects decode, not retried, cache unchanged',
    faults: malformed('{"code":0,"message":"ok","data":{"free_rem'),
    expect: refused('op-truncated', { code: 'decode' }),
  },
  {
    name: 'consume: valid JSON of the wrong shape',
    id: 'op-wrong-shape',
    behaviour: 'rejects decode (free_remaining is a string), cache unchanged, no free period',
    faults: malformed('{"code":0,"message":"ok","data":{"free_remaining":"1","is_credit":false}}'),
    expect: refused('op-wrong-shape', { code: 'decode' }),
  },
  {
    name: 'consume: an unknown non-zero code',
    id: 'op-unknown-code',
    behaviour: 'rejects backend with backendCode and message, not retried, cache unchanged',
    faults: malformed('{"code":30001,"message":"module disabled","data":null}'),
    expect: refused('op-unknown-code', { code: 'backend', backendCode: 30001 }),
  },
  {
    name: 'consume: 20101 insufficient',
    id: 'op-20101',
    behaviour: 'rejects insufficient_credits; cached freeRemaining becomes 0; no free period',
    user: { freeRemaining: 0, creditsBalance: 2 },
    expect: {
      ...refused('op-20101', { code: 'insufficient_credits', backendCode: 20101 }),
      // A refusal refreshes the balance (issue 18 item 11).
      requests: { count: 0, balance: 1, consume: 1 },
      cached: { freeRemaining: 0, creditsBalance: 2, inFreePeriod: false },
    },
  },
  {
    name: 'consume: 20102 blacklisted',
    id: 'op-20102',
    behaviour: 'resolves isBlacklisted with the cached free count; nothing charged; no free period',
    user: { blacklisted: true },
    expect: {
      ...refused('op-20102', {}),
      outcome: { resolves: { freeRemaining: 2, isCredit: false, isBlacklisted: true } },
    },
  },
  {
    name: 'consume: 401 unauthenticated',
    id: 'op-401',
    behaviour: 'rejects http 401, not retried, nothing charged, nothing cached',
    token: 'tok-stranger',
    prime: false,
    expect: { ...refused('op-401', { code: 'http', status: 401 }), cached: null },
  },
];
