import { interval, timer } from 'rxjs';
import { createClient, isBillingError } from '../../lib';
import { createReferenceBackend, createTestClock } from '../../lib/testing';

// Issue 25 §3: the test clock `unified-billing/testing` exports.

describe('createTestClock()', () => {
  it('runs the timers due by the target in due order, each at its own time, and none later', () => {
    const clock = createTestClock({ start: 100, wall: 5_000 });
    const ran: string[] = [];
    const at = (name: string) => () => ran.push(`${name}@${clock.now()}`);
    clock.schedule(at('c'), 30);
    clock.schedule(at('a'), 10);
    clock.schedule(at('b'), 10);
    clock.schedule(at('late'), 31);
    clock.advance(30);
    expect(ran).toEqual(['a@110', 'b@110', 'c@130']);
    expect(clock.now()).toBe(130);
    expect(clock.wallNow()).toBe(5_030);
    expect(clock.pending()).toBe(1);
    clock.advance(1);
    expect(ran.at(-1)).toBe('late@131');
    expect(clock.pending()).toBe(0);
  });

  it('runs a timer armed by another timer when it falls due within the same advance', () => {
    const clock = createTestClock();
    const ran: number[] = [];
    clock.schedule(() => {
      ran.push(clock.now());
      clock.schedule(() => ran.push(clock.now()), 5);
    }, 5);
    clock.advance(20);
    expect(ran).toEqual([5, 10]);
  });

  it('drives RxJS operators: interval reschedules itself, an unsubscribed timer never runs', () => {
    const clock = createTestClock();
    const ticks: number[] = [];
    const ticking = interval(1000, clock).subscribe((n) => ticks.push(n));
    const fired: number[] = [];
    timer(500, clock)
      .subscribe(() => fired.push(1))
      .unsubscribe();
    clock.advance(3_500);
    expect(ticks).toEqual([0, 1, 2]);
    expect(fired).toEqual([]);
    ticking.unsubscribe();
    expect(clock.pending()).toBe(0);
  });

  it('refuses to go back in time', () => {
    expect(() => createTestClock().advance(-1)).toThrow(RangeError);
  });

  it('as the scheduler: a client consumes past its free periods until insufficient_credits', async () => {
    const backend = createReferenceBackend({
      users: [{ token: 't', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 25 }],
    });
    const clock = createTestClock();
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      headers: { Authorization: 'Bearer t' },
      fetch: backend.fetch,
      scheduler: clock,
    });
    try {
      await client.billing.getUsage();
      await client.billing.consume();
      // Inside the free period: answered without a charge.
      await client.billing.consume();
      expect(backend.charges()).toHaveLength(1);
      clock.advance(29_999);
      expect(client.billing.check().reason).toBe('free_period');
      clock.advance(1);
      expect(client.billing.check().reason).not.toBe('free_period');
      let refused: unknown;
      for (let i = 0; i < 5 && refused === undefined; i++) {
        await client.billing.consume().catch((error: unknown) => (refused = error));
        clock.advance(30_000);
      }
      expect(isBillingError(refused, 'insufficient_credits')).toBe(true);
      expect(backend.charges().map((charge) => charge.kind)).toEqual(['free', 'credits', 'credits']);
      expect(client.billing.getCachedUsage()).toMatchObject({ creditsBalance: 5, inFreePeriod: false });
      // The snapshot reads the clock's wall time.
      expect(client.billing.snapshot()?.fetchedAt).toBeLessThanOrEqual(clock.wallNow());
    } finally {
      client.billing.dispose();
      await backend.close();
    }
    expect(clock.pending()).toBe(0);
  });

  it('counts freePeriodRemaining$ down second by second as it advances', async () => {
    const backend = createReferenceBackend({
      users: [{ token: 't', freeRemaining: 3, freeTotal: 3, creditsPerUse: 10, creditsBalance: 0 }],
    });
    const clock = createTestClock();
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      headers: { Authorization: 'Bearer t' },
      fetch: backend.fetch,
      scheduler: clock,
    });
    const seconds: number[] = [];
    client.billing.freePeriodRemaining$.subscribe((left) => seconds.push(left));
    await client.billing.consume();
    clock.advance(3_000);
    expect(seconds.slice(-4)).toEqual([30, 29, 28, 27]);
    clock.advance(27_000);
    expect(seconds.at(-1)).toBe(0);
    client.billing.dispose();
    await backend.close();
  });
});
