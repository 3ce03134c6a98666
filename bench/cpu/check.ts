import type { SchedulerLike } from 'rxjs';
import { createClient } from '../../lib/client/create-client';
import { monotonicScheduler } from '../../lib/index';
import type { BillingCheckResult } from '../../lib/shared/types';
import { UserBackend } from '../../spec/helpers/client-fixture';
import { VirtualClock } from '../../spec/helpers/virtual-clock';
import { bytesPerCall } from '../harness/alloc';
import { median } from '../harness/stats';

/** `check()` against a hand-written check doing the same work on a plain object. */
export interface CheckFigures {
  readonly opsPerSec: number;
  readonly baselineOpsPerSec: number;
  /** check() speed / baseline speed; the goal is >= 0.5. */
  readonly ratio: number;
  readonly bytesPerCall: number;
  readonly baselineBytesPerCall: number;
  /** With a clock whose now() is a small integer: what check() itself allocates. */
  readonly bytesPerCallIntegerClock: number;
}

const ROUNDS = 15;

// The results check() returns are frozen singletons; the baseline returns the same kind.
const FREE_PERIOD: BillingCheckResult = Object.freeze({ canProceed: true, reason: 'free_period' });
const FREE_COUNT: BillingCheckResult = Object.freeze({ canProceed: true, reason: 'free_count' });
const CREDITS: BillingCheckResult = Object.freeze({ canProceed: true, reason: 'credits' });
const INSUFFICIENT: BillingCheckResult = Object.freeze({ canProceed: false, reason: 'insufficient' });

interface PlainState {
  readonly freePeriodEnd: number | null;
  readonly quota: {
    readonly freeRemaining: number;
    readonly creditsBalance: number;
    readonly creditsPerUse: number;
  } | null;
}

/**
 * The least any `check()` must do, as a method on a plain object: refuse when
 * disposed, read `scheduler.now()` (the same scheduler object the client is
 * given), decide in the spec's order from the cached state, return a frozen
 * result.
 */
function handWrittenCheck(scheduler: SchedulerLike, state: PlainState) {
  return {
    disposed: false,
    state,
    check(): BillingCheckResult {
      if (this.disposed) throw new Error('disposed');
      const now = scheduler.now();
      const s = this.state;
      if (s.freePeriodEnd !== null && now < s.freePeriodEnd) return FREE_PERIOD;
      const q = s.quota;
      if (q === null) return INSUFFICIENT;
      if (q.freeRemaining > 0) return FREE_COUNT;
      if (q.creditsBalance >= q.creditsPerUse) return CREDITS;
      return INSUFFICIENT;
    },
  };
}

/** Runs `a` and `b` in alternating rounds (order flipped each round), returns the median ops/s of each. */
function alternate(a: () => number, b: () => number, batch: number): [number, number] {
  const rates: [number[], number[]] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const started = performance.now();
      (which === 0 ? a : b)();
      rates[which]?.push(batch / ((performance.now() - started) / 1000));
    }
  }
  return [median(rates[0]), median(rates[1])];
}

export async function measureCheck({ quick = false } = {}): Promise<CheckFigures> {
  const batch = quick ? 20_000 : 200_000;
  const backend = new UserBackend({ freeRemaining: 3 });
  // The default scheduler, as users run it, named so the baseline reads the very same clock.
  const scheduler = monotonicScheduler;
  const client = createClient({ baseUrl: 'http://billing.bench', appKey: 'bench', fetch: backend.fetch, scheduler });
  const usage = await client.billing.getUsage();
  const plain = handWrittenCheck(scheduler, {
    freePeriodEnd: null,
    quota: {
      freeRemaining: usage.freeRemaining,
      creditsBalance: usage.creditsBalance,
      creditsPerUse: usage.creditsPerUse,
    },
  });
  // A check() that stops returning singletons shows in the bytes-per-call row, not here.
  if (client.billing.check().reason !== plain.check().reason) throw new Error('the two sides decide differently');
  let sink = 0;
  // XOR keeps the sink a small integer: a growing sum would allocate heap numbers.
  const check = () => {
    sink ^= client.billing.check().canProceed ? 1 : 2;
  };
  const baseline = () => {
    sink ^= plain.check().canProceed ? 1 : 2;
  };
  const checkBatch = () => {
    for (let i = 0; i < batch; i++) check();
    return sink;
  };
  const baselineBatch = () => {
    for (let i = 0; i < batch; i++) baseline();
    return sink;
  };
  checkBatch();
  baselineBatch();
  const [opsPerSec, baselineOpsPerSec] = alternate(checkBatch, baselineBatch, batch);
  const figures = {
    opsPerSec,
    baselineOpsPerSec,
    ratio: opsPerSec / baselineOpsPerSec,
    bytesPerCall: await bytesPerCall(check),
    baselineBytesPerCall: await bytesPerCall(baseline),
  };
  // performance.now() returns a fresh heap double; an integer clock isolates check() itself.
  const virtual = createClient({
    baseUrl: 'http://billing.bench',
    appKey: 'bench',
    fetch: backend.fetch,
    scheduler: new VirtualClock(),
  });
  await virtual.billing.getUsage();
  const bytesPerCallIntegerClock = await bytesPerCall(() => {
    sink ^= virtual.billing.check().canProceed ? 1 : 2;
  });
  client.billing.dispose();
  virtual.billing.dispose();
  if (sink === -1) throw new Error('unreachable: keeps the decisions observable');
  return { ...figures, bytesPerCallIntegerClock };
}
