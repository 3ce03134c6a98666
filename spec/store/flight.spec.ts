import fc from 'fast-check';
import { flight } from '../../lib/store/flight';

// The shared request under every usage and balance call, driven by random callers: joins and nudges,
// with or without a signal, fresh requests ('now', this client's own charge), aborts, answers, failures
// and dispose, in any order.

type Op =
  | { readonly kind: 'join' | 'after' | 'now'; readonly signal: boolean }
  | { readonly kind: 'abort'; readonly caller: number }
  | { readonly kind: 'answer' | 'fail'; readonly request: number }
  | { readonly kind: 'stop' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('join' as const, 'after' as const, 'now' as const), signal: fc.boolean() }),
  fc.record({ kind: fc.constant('abort' as const), caller: fc.nat(30) }),
  fc.record({ kind: fc.constantFrom('answer' as const, 'fail' as const), request: fc.nat(30) }),
  fc.record({ kind: fc.constant('stop' as const) }),
);

const flush = () => new Promise((resolve) => setImmediate(resolve));

interface Sent {
  readonly at: number;
  readonly controller: AbortController;
  settle(ok: boolean): void;
  settled: boolean;
}
interface Caller {
  readonly kind: 'join' | 'after' | 'now';
  readonly at: number;
  readonly controller: AbortController | null;
  outcome?: { ok: true; value: number } | { ok: false; error: string };
}

async function run(ops: readonly Op[]): Promise<void> {
  const sent: Sent[] = [];
  let tick = 0;
  let stopped = false;
  let mostLive = 0;
  let nows = 0;
  const shared = flight<number>((controller) => {
    const at = tick;
    return new Promise<number>((resolve, reject) => {
      const request: Sent = {
        at,
        controller,
        settled: false,
        settle(ok) {
          if (request.settled) return;
          request.settled = true;
          if (ok) resolve(sent.indexOf(request));
          else reject(new Error('network'));
        },
      };
      sent.push(request);
      // Like fetch: an abort fails the request.
      controller.signal.addEventListener('abort', () => request.settle(false));
    });
  });
  const callers: Caller[] = [];
  for (const step of ops) {
    tick += 1;
    if (step.kind === 'join' || step.kind === 'after' || step.kind === 'now') {
      if (stopped) continue;
      if (step.kind === 'now') nows += 1;
      const controller = step.signal ? new AbortController() : null;
      const caller: Caller = { kind: step.kind, at: tick, controller };
      callers.push(caller);
      const fresh = step.kind === 'join' ? undefined : step.kind;
      shared.join({ signal: controller?.signal, fresh }).then(
        (value) => (caller.outcome = { ok: true, value }),
        (error: { code?: string; message: string }) =>
          (caller.outcome = { ok: false, error: error.code ?? error.message }),
      );
    } else if (step.kind === 'abort') {
      callers[step.caller]?.controller?.abort();
    } else if (step.kind === 'stop') {
      stopped = true;
      shared.stop(Object.assign(new Error('disposed'), { code: 'disposed' }));
    } else if (step.kind === 'answer' || step.kind === 'fail') {
      sent[step.request]?.settle(step.kind === 'answer');
    }
    await flush();
    mostLive = Math.max(mostLive, sent.filter((r) => !r.settled && !r.controller.signal.aborted).length);
  }
  // Then the network answers everything still out, and the client is disposed.
  for (let i = 0; i < sent.length; i += 1) {
    sent[i]?.settle(true);
    await flush();
  }
  shared.stop(Object.assign(new Error('disposed'), { code: 'disposed' }));
  await flush();

  // One request in flight that somebody waits for, plus one per fresh request sent beside it.
  expect(mostLive).toBeLessThanOrEqual(1 + nows);
  for (const caller of callers) {
    // Every caller settled.
    expect(caller.outcome).toBeDefined();
    const { outcome } = caller;
    // `aborted` only for a caller that aborted: nobody inherits another caller's abort.
    if (outcome?.ok === false && outcome.error === 'aborted') expect(caller.controller?.signal.aborted).toBe(true);
    // A nudge or a fresh request is answered only by a request sent after it.
    if (caller.kind !== 'join' && outcome?.ok === true)
      expect(sent[outcome.value]?.at).toBeGreaterThanOrEqual(caller.at);
    // Nobody is answered by a request that was aborted.
    if (outcome?.ok === true) expect(sent[outcome.value]?.controller.signal.aborted).toBe(false);
  }
}

describe('flight(): shared requests under random callers', () => {
  test('every caller settles once; aborted only by its own signal; a nudge answered only by a later request', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), (ops) => run(ops)),
      { numRuns: 300 },
    );
  });

  test('a burst of nudges while a request is in flight sends one more request, not one per nudge', async () => {
    const starts: Array<() => void> = [];
    const shared = flight<number>(() => new Promise<number>((resolve) => starts.push(() => resolve(starts.length))));
    const first = shared.join();
    const nudges = Array.from({ length: 50 }, () => shared.join({ fresh: 'after' }));
    expect(starts).toHaveLength(1);
    starts[0]?.();
    await first;
    await flush();
    expect(starts).toHaveLength(2);
    starts[1]?.();
    await expect(Promise.all(nudges)).resolves.toEqual(Array(50).fill(2));
  });

  test('a fresh request goes out at once beside an older one in flight, and nudges meanwhile share one follow-up behind it', async () => {
    const starts: Array<(value: number) => void> = [];
    const shared = flight<number>(() => new Promise<number>((resolve) => starts.push(resolve)));
    const old = shared.join();
    const fresh = shared.join({ fresh: 'now' });
    expect(starts).toHaveLength(2);
    // Joins after it take the fresh one, not the older one in flight.
    const joined = shared.join();
    const nudges = Array.from({ length: 50 }, () => shared.join({ fresh: 'after' }));
    starts[1]?.(2);
    await expect(fresh).resolves.toBe(2);
    await expect(joined).resolves.toBe(2);
    await flush();
    // The follow-up goes once the fresh request settled, whatever the older one does.
    expect(starts).toHaveLength(3);
    starts[2]?.(3);
    await expect(Promise.all(nudges)).resolves.toEqual(Array(50).fill(3));
    starts[0]?.(1);
    await expect(old).resolves.toBe(1);
    expect(starts).toHaveLength(3);
  });
});
