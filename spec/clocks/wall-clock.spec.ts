import type { SchedulerLike } from 'rxjs';
import { createClient, type Client } from '../../lib';
import { UserBackend } from '../helpers/client-fixture';
import { VirtualClock } from '../helpers/virtual-clock';

/**
 * A scheduler like a wall clock: `now()` can be moved by hand (NTP, a user
 * changing the time) while its timers keep counting elapsed time, on a
 * virtual clock the test advances.
 */
class JumpyScheduler implements SchedulerLike {
  readonly clock = new VirtualClock();
  private offset = 0;

  now(): number {
    return this.clock.now() + this.offset;
  }

  /** Moves `now()` by `ms` (negative: back) without touching armed timers. */
  jump(ms: number): void {
    this.offset += ms;
  }

  /** Elapsed timer time: runs the timers due within `ms`. */
  elapse(ms: number): void {
    this.clock.advanceBy(ms);
  }

  readonly schedule: SchedulerLike['schedule'] = this.clock.schedule.bind(this.clock) as SchedulerLike['schedule'];
}

const HOUR = 3_600_000;
const clients: Client[] = [];
afterEach(() => clients.splice(0).forEach((client) => client.billing.dispose()));

function setup() {
  const backend = new UserBackend({ freeRemaining: 5 });
  const scheduler = new JumpyScheduler();
  const client = createClient({ baseUrl: 'http://billing.test', appKey: 'poster', fetch: backend.fetch, scheduler });
  clients.push(client);
  // Every countdown value a user could see, from every view.
  const remaining: number[] = [];
  client.billing.freePeriodRemaining$.subscribe((seconds) => remaining.push(seconds));
  client.billing.usage$.subscribe((usage) => remaining.push(usage.freePeriodRemaining));
  const sample = () => remaining.push(client.billing.getCachedUsage()?.freePeriodRemaining ?? 0);
  return { backend, scheduler, client, remaining, sample };
}

const posts = (backend: UserBackend) => backend.count('/ai/v5/service/free_trial');

describe('a scheduler whose now() jumps while its timers keep elapsed time', () => {
  it('wall clock moved back an hour inside a free period: it still ends 30 s of timer time after the charge', async () => {
    const { backend, scheduler, client, remaining, sample } = setup();
    await client.billing.getUsage();
    await client.billing.consume({ externalId: 'op-1' });
    scheduler.elapse(10_000);
    scheduler.jump(-HOUR);
    sample();
    expect(client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: true, freePeriodRemaining: 30 });
    await client.billing.consume({ externalId: 'op-free' });
    expect(posts(backend)).toBe(1);
    scheduler.elapse(19_999);
    sample();
    expect(client.billing.check().reason).toBe('free_period');
    scheduler.elapse(1);
    sample();
    expect(client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: false, freePeriodRemaining: 0 });
    expect(client.billing.check().reason).toBe('free_count');
    // The same operation again is a replay, not a second charge.
    await client.billing.consume({ externalId: 'op-1' });
    expect(backend.charged).toEqual(['op-1']);
    expect(remaining.every((seconds) => seconds >= 0 && seconds <= 30)).toBe(true);
    expect(remaining.at(-1)).toBe(30);
  });

  it('wall clock moved forward an hour inside a free period: it ends no later than 30 s of timer time, nothing charges twice', async () => {
    const { backend, scheduler, client, remaining, sample } = setup();
    await client.billing.getUsage();
    await client.billing.consume({ externalId: 'op-1' });
    scheduler.elapse(10_000);
    scheduler.jump(HOUR);
    sample();
    // A forward jump of now() can only end the period early, never stretch it.
    expect(client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: false, freePeriodRemaining: 0 });
    // Retrying the same operation is a replay: the backend charges nothing more.
    await client.billing.consume({ externalId: 'op-1' });
    expect(posts(backend)).toBe(2);
    expect(backend.charged).toEqual(['op-1']);
    sample();
    scheduler.elapse(30_000);
    sample();
    expect(client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: false, freePeriodRemaining: 0 });
    expect(remaining.every((seconds) => seconds >= 0 && seconds <= 30)).toBe(true);
    expect(backend.charged).toEqual(['op-1']);
  });
});

describe('the default monotonicScheduler', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it.each([
    ['back', -HOUR],
    ['forward', HOUR],
  ])('wall clock moved %s an hour inside a free period: the period ends 30 s after the charge', async (_, jump) => {
    const backend = new UserBackend({ freeRemaining: 5 });
    const client = createClient({ baseUrl: 'http://billing.test', appKey: 'poster', fetch: backend.fetch });
    clients.push(client);
    await client.billing.getUsage();
    await client.billing.consume({ externalId: 'op-1' });
    jest.advanceTimersByTime(10_000);
    jest.setSystemTime(Date.now() + jump);
    expect(client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: true, freePeriodRemaining: 20 });
    await client.billing.consume({ externalId: 'op-2' });
    jest.advanceTimersByTime(19_999);
    expect(client.billing.check().reason).toBe('free_period');
    expect(client.billing.getCachedUsage()?.freePeriodRemaining).toBe(1);
    jest.advanceTimersByTime(1);
    expect(client.billing.getCachedUsage()).toMatchObject({ inFreePeriod: false, freePeriodRemaining: 0 });
    expect(backend.charged).toEqual(['op-1']);
    expect(posts(backend)).toBe(1);
  });
});
