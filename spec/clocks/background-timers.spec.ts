import { asyncScheduler, firstValueFrom, lastValueFrom, take, timer, toArray } from 'rxjs';
import { inBackground, monotonicScheduler } from '../../lib/shared/scheduler';
import { VirtualClock } from '../helpers/virtual-clock';

// Node lists a ref'd timer as an active 'Timeout' resource; an unref'd one is not listed.
const refTimers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('inBackground: the default scheduler for timers nobody awaits', () => {
  const background = inBackground(monotonicScheduler);

  it('keeps the monotonic clock', () => {
    expect(background.now).toBe(monotonicScheduler.now);
  });

  it('runs a one-shot timer once, without holding the event loop', async () => {
    const before = refTimers();
    const fired = firstValueFrom(timer(5, background));
    expect(refTimers()).toBe(before);
    await expect(fired).resolves.toBe(0);
  });

  it('runs a periodic timer (the action reschedules itself from its work)', async () => {
    await expect(lastValueFrom(timer(2, 3, background).pipe(take(4), toArray()))).resolves.toEqual([0, 1, 2, 3]);
  });

  it('cancels a pending timer on unsubscribe', async () => {
    const seen: number[] = [];
    const subscription = timer(5, background).subscribe((value) => seen.push(value));
    subscription.unsubscribe();
    await firstValueFrom(timer(20, asyncScheduler));
    expect(seen).toEqual([]);
    expect(subscription.closed).toBe(true);
  });

  it('passes the state and reschedules with a new state', async () => {
    const states: number[] = [];
    await new Promise<void>((resolve) => {
      background.schedule<number>(
        function (state = 0) {
          states.push(state);
          if (state < 2) this.schedule(state + 1, 1);
          else resolve();
        },
        1,
        0,
      );
    });
    expect(states).toEqual([0, 1, 2]);
  });

  it('the default scheduler itself still holds the event loop (a request timeout, a retry backoff)', () => {
    const before = refTimers();
    const subscription = timer(1_000, monotonicScheduler).subscribe();
    expect(refTimers()).toBe(before + 1);
    subscription.unsubscribe();
  });

  it('an injected scheduler is used as given', () => {
    const clock = new VirtualClock();
    expect(inBackground(clock)).toBe(clock);
    expect(inBackground(asyncScheduler)).toBe(asyncScheduler);
  });
});
