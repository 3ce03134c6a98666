import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';
import { cleanup, fixture } from '../helpers/client-fixture';
import { VirtualClock } from '../helpers/virtual-clock';

afterEach(cleanup);

// A device that slept: its clock jumped ahead while its timers wait to fire, late. Keeps the delay of each
// timer armed.
class SleptDevice implements SchedulerLike {
  readonly timers = new VirtualClock();
  slept = 0;
  readonly delays: number[] = [];
  now = (): number => this.timers.now() + this.slept;
  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    this.delays.push(delay ?? 0);
    return this.timers.schedule(work, delay, state);
  }
}

describe('the free-period timer of the store core', () => {
  it('is not armed again by a charge that moves the end later; the period still ends at the later end', async () => {
    const device = new SleptDevice();
    const { client, backend } = fixture({ freeRemaining: 5 }, { scheduler: device });
    await client.billing.getUsage();
    await client.billing.consume();
    // Longer than a request's timeout (10 s): the free period's.
    const periodTimers = () => device.delays.filter((delay) => delay > 10_000).length;
    expect(periodTimers()).toBe(1);
    // 31 s later by the clock, and the timer aimed at the first end has not fired yet.
    device.slept = 31_000;
    expect(client.billing.check().reason).toBe('free_count');
    await client.billing.consume();
    expect(backend.charged).toHaveLength(2);
    expect(periodTimers()).toBe(1);
    // The old timer fires 30 s after the first charge (61 s by the clock, the second charge's end): it aims
    // again, at that end, and the period ends there, not a millisecond before.
    device.timers.advanceBy(29_999);
    expect(client.billing.check().reason).toBe('free_period');
    device.timers.advanceBy(1);
    expect(client.billing.check().reason).toBe('free_count');
    expect(client.billing.getCachedUsage()?.inFreePeriod).toBe(false);
    expect(device.timers.pending).toBe(0);
  });
});
