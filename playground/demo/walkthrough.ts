import { createClient, isBillingError, type BillingConsumeResult, type Client } from '../../lib';
import { startReferenceBackend, type ReferenceBackend, type ReferenceUser } from '../../lib/testing';
import { FastForwardClock } from './fast-forward-clock';
import { describePreview, describeStatus } from '../page/status-lines';
import { describeRequest, type StepReport } from './step-report';

const USER: ReferenceUser = {
  token: 'walkthrough',
  freeRemaining: 1,
  freeTotal: 1,
  creditsPerUse: 10,
  creditsBalance: 15,
};

/** What a step's call came to, for its checks. */
type Outcome = { ok: true; result: BillingConsumeResult } | { ok: false; error: unknown };

interface Context {
  readonly backend: ReferenceBackend;
  readonly client: Client;
  readonly clock: FastForwardClock;
}

async function attempt(call: () => Promise<BillingConsumeResult>): Promise<Outcome> {
  try {
    return { ok: true, result: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}

function outcomeText(outcome: Outcome): string {
  if (!outcome.ok)
    return isBillingError(outcome.error) ? `rejects ${outcome.error.code}` : `throws ${String(outcome.error)}`;
  const { freeRemaining, isCredit, isBlacklisted } = outcome.result;
  return `freeRemaining ${freeRemaining}, isCredit ${isCredit}, isBlacklisted ${isBlacklisted}`;
}

/** Runs one step: clears the backend's log, calls, then reads the log and the checks. */
async function step(
  context: Context,
  title: string,
  call: () => Promise<Outcome | string>,
  check: (outcome: Outcome | string, wire: readonly string[]) => Array<string | false>,
  prepare: () => void = () => undefined,
): Promise<StepReport> {
  // Time passes (or the operator acts) before the verdict is read.
  prepare();
  context.backend.clearLog();
  const { billing } = context.client;
  const verdict = billing.check().reason;
  const preview = describePreview(billing.preview());
  const outcome = await call();
  const status = describeStatus(billing.getStatus(), context.clock.now());
  const wire = context.backend.requests().map(describeRequest);
  const problems = check(outcome, wire).filter((problem): problem is string => problem !== false);
  return {
    title,
    verdict,
    preview,
    status,
    outcome: typeof outcome === 'string' ? outcome : outcomeText(outcome),
    requests: wire,
    problems,
  };
}

const paths = (wire: readonly string[]) =>
  wire.map((line) => line.split(' ').slice(0, 2).join(' ').split('?')[0] ?? '');
const same = (actual: readonly string[], expected: readonly string[]) =>
  JSON.stringify(actual) === JSON.stringify(expected) ? false : `requests were ${JSON.stringify(actual)}`;
const result = (outcome: Outcome | string) => (typeof outcome !== 'string' && outcome.ok ? outcome.result : undefined);

const COUNT = 'GET /ai/v5/service/free_trial/count';
const BALANCE = 'GET /ai/v1/credit/getBalance';
const POST = 'POST /ai/v5/service/free_trial';

/**
 * The billing priority end to end against an embedded reference backend:
 * free quota, free period, credits, insufficient, blacklisted. Each step
 * reports what it sent (from the backend's request log) and what, if
 * anything, did not behave as the spec says.
 */
export async function runWalkthrough(): Promise<StepReport[]> {
  const backend = await startReferenceBackend({ users: [USER] });
  const clock = new FastForwardClock();
  const client = createClient({
    baseUrl: backend.url,
    appKey: 'demo',
    headers: { Authorization: `Bearer ${USER.token}` },
    scheduler: clock,
  });
  const context: Context = { backend, client, clock };
  const { billing } = client;
  const consume = (externalId: string) => attempt(() => billing.consume({ externalId }));
  try {
    return [
      await step(
        context,
        'getUsage(): both GETs in parallel',
        async () => {
          const usage = await billing.getUsage();
          return `free ${usage.freeRemaining}/${usage.freeTotal}, balance ${usage.creditsBalance}, ${usage.creditsPerUse} per use`;
        },
        (_, wire) => [
          same([...paths(wire)].sort(), [BALANCE, COUNT]),
          billing.check().reason !== 'free_count' && 'check() is not free_count',
        ],
      ),
      await step(
        context,
        'consume(): the free quota pays',
        () => consume('export-1'),
        (outcome, wire) => [
          same(paths(wire), [POST]),
          result(outcome)?.freeRemaining !== 0 && 'freeRemaining is not 0',
          result(outcome)?.isCredit !== false && 'isCredit is not false',
          billing.check().reason !== 'free_period' && 'no free period started',
        ],
      ),
      await step(
        context,
        '5 s later, consume(): free period',
        () => consume('export-2'),
        (outcome, wire) => [same(paths(wire), []), result(outcome) === undefined && 'did not resolve'],
        () => clock.advanceBy(5_000),
      ),
      await step(
        context,
        '31 s later, consume(): credits',
        () => consume('export-3'),
        (outcome, wire) => [
          same(paths(wire), [POST, BALANCE]),
          result(outcome)?.isCredit !== true && 'isCredit is not true',
          billing.getCachedUsage()?.creditsBalance !== 5 && 'the balance was not refreshed to 5',
        ],
        () => clock.advanceBy(31_000),
      ),
      await step(
        context,
        '31 s later, consume(): insufficient',
        () => consume('export-4'),
        (outcome, wire) => [
          // A refusal refreshes the balance (issue 18 item 11), so check() tells the truth.
          same(paths(wire), [POST, BALANCE]),
          (typeof outcome === 'string' || outcome.ok || !isBillingError(outcome.error, 'insufficient_credits')) &&
            'did not reject insufficient_credits',
          billing.check().reason !== 'insufficient' && 'check() is not insufficient',
        ],
        () => clock.advanceBy(31_000),
      ),
      await step(
        context,
        'blacklisted by the operator, consume()',
        () => consume('export-5'),
        (outcome, wire) => [
          same(paths(wire), [POST]),
          result(outcome)?.isBlacklisted !== true && 'isBlacklisted is not true',
          billing.check().reason === 'free_period' && 'a free period started',
          backend.charges().length !== 2 && `${backend.charges().length} charges instead of 2`,
        ],
        () => backend.setUser(USER.token, { blacklisted: true, creditsBalance: 100 }),
      ),
    ];
  } finally {
    billing.dispose();
    await backend.close();
  }
}
