import { createClient } from '../../lib/client';
import { FakeBackend, quota } from '../../spec/helpers/fake-backend';
import { VirtualClock } from '../../spec/helpers/virtual-clock';
import { bytesPerCall } from '../harness/alloc';
import { median } from '../harness/stats';

/** `check()` against the same decision computed inline on a plain object. */
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

const BATCH = 200_000;
const ROUNDS = 15;

interface PlainState {
  freePeriodEnd: number | null;
  quota: { freeRemaining: number; creditsBalance: number; creditsPerUse: number } | null;
}

/** Runs `batch` in alternating rounds with `other`, returns the median ops/s of each. */
function alternate(a: () => number, b: () => number): [number, number] {
  const rates: [number[], number[]] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const started = performance.now();
      (which === 0 ? a : b)();
      rates[which]?.push(BATCH / ((performance.now() - started) / 1000));
    }
  }
  return [median(rates[0]), median(rates[1])];
}

export async function measureCheck(): Promise<CheckFigures> {
  const backend = new FakeBackend(quota({ freeRemaining: 3 }));
  // The default scheduler, as users run it: each check() reads performance.now().
  const client = createClient({ baseUrl: 'http://billing.bench', appKey: 'bench', fetch: backend.fetch });
  await client.billing.getUsage();
  const plain: PlainState = { freePeriodEnd: null, quota: { freeRemaining: 3, creditsBalance: 10, creditsPerUse: 2 } };
  let sink = 0;
  const check = () => {
    // XOR keeps the sink a small integer: a growing sum would allocate heap numbers.
    sink ^= client.billing.check().canProceed ? 1 : 2;
  };
  // The same decision, same order, same clock read, inline in the loop.
  const inline = () => {
    const now = performance.now();
    const s = plain;
    const q = s.quota;
    let reason: string;
    if (s.freePeriodEnd !== null && now < s.freePeriodEnd) reason = 'free_period';
    else if (q === null) reason = 'insufficient';
    else if (q.freeRemaining > 0) reason = 'free_count';
    else if (q.creditsBalance >= q.creditsPerUse) reason = 'credits';
    else reason = 'insufficient';
    sink ^= reason === 'insufficient' ? 2 : 1;
  };
  const checkBatch = () => {
    for (let i = 0; i < BATCH; i++) check();
    return sink;
  };
  const inlineBatch = () => {
    for (let i = 0; i < BATCH; i++) inline();
    return sink;
  };
  checkBatch();
  inlineBatch();
  const [opsPerSec, baselineOpsPerSec] = alternate(checkBatch, inlineBatch);
  const figures = {
    opsPerSec,
    baselineOpsPerSec,
    ratio: opsPerSec / baselineOpsPerSec,
    bytesPerCall: bytesPerCall(check),
    baselineBytesPerCall: bytesPerCall(inline),
  };
  // performance.now() returns a fresh heap double; an integer clock isolates check() itself.
  const virtual = createClient({
    baseUrl: 'http://billing.bench',
    appKey: 'bench',
    fetch: backend.fetch,
    scheduler: new VirtualClock(),
  });
  await virtual.billing.getUsage();
  const bytesPerCallIntegerClock = bytesPerCall(() => {
    sink ^= virtual.billing.check().canProceed ? 1 : 2;
  });
  client.billing.dispose();
  virtual.billing.dispose();
  if (sink === -1) throw new Error('unreachable: keeps the decisions observable');
  return { ...figures, bytesPerCallIntegerClock };
}
