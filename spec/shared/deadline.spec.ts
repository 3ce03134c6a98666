import { getEventListeners } from 'node:events';
import { deadline, deferred, sleep } from '../../lib/shared/deadline';
import { settle, VirtualClock } from '../helpers/virtual-clock';

// The one race of lib/ (issue 30 point 3): work against a scheduler timer and a signal, settled once.
describe('deadline()', () => {
  const outcome = <T>(promise: Promise<T>) => {
    const seen: { value?: T; error?: unknown; settled: boolean } = { settled: false };
    promise.then(
      (value) => Object.assign(seen, { value, settled: true }),
      (error: unknown) => Object.assign(seen, { error, settled: true }),
    );
    return seen;
  };

  it('settles with the work when it comes first, and leaves no timer or listener', async () => {
    const clock = new VirtualClock();
    const caller = new AbortController();
    const work = deferred<string>();
    let cut: AbortSignal | undefined;
    const seen = outcome(
      deadline((signal) => ((cut = signal), work.promise), { scheduler: clock, ms: 100, signal: caller.signal }),
    );
    work.resolve('answer');
    await settle();
    expect(seen).toEqual({ value: 'answer', settled: true });
    expect(clock.pending).toBe(0);
    expect(cut?.aborted).toBe(false);
    caller.abort();
    clock.advanceBy(200);
    await settle();
    expect(seen.value).toBe('answer');
  });

  it('races on one signal share one listener; an abort ends those still running, in the order they started', async () => {
    const caller = new AbortController();
    const ended: number[] = [];
    const works = [0, 1, 2, 3].map(() => deferred<string>());
    const seen = works.map((work, index) =>
      outcome(deadline(() => work.promise, { signal: caller.signal, onAbort: () => (ended.push(index), 'aborted') })),
    );
    // One listener however many races: no leak warning at 11 races on one signal, and one to remove.
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    works[1]!.resolve('answered');
    await settle();
    caller.abort();
    await settle();
    expect(ended).toEqual([0, 2, 3]);
    expect(seen.map((race) => race.value)).toEqual(['aborted', 'answered', 'aborted', 'aborted']);
    // A race started on the signal once aborted never runs its work, and adds no listener.
    const late = outcome(deadline(() => Promise.resolve('late'), { signal: caller.signal, onAbort: () => 'refused' }));
    await settle();
    expect(late.value).toBe('refused');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
  });

  it('ends with onTimeout after ms on the scheduler, and cuts the work', async () => {
    const clock = new VirtualClock();
    let cut: AbortSignal | undefined;
    const seen = outcome(
      deadline((signal) => ((cut = signal), new Promise<string>(() => undefined)), {
        scheduler: clock,
        ms: 100,
        onTimeout: () => {
          throw new Error('late');
        },
      }),
    );
    clock.advanceBy(99);
    await settle();
    expect(seen.settled).toBe(false);
    clock.advanceBy(1);
    await settle();
    expect((seen.error as Error).message).toBe('late');
    expect(cut?.aborted).toBe(true);
  });

  it('ends with onAbort when the signal aborts, even with the work settling after', async () => {
    const clock = new VirtualClock();
    const caller = new AbortController();
    const work = deferred<string>();
    const seen = outcome(
      deadline(() => work.promise, { scheduler: clock, ms: 100, signal: caller.signal, onAbort: () => 'gone' }),
    );
    caller.abort();
    work.resolve('answer');
    await settle();
    expect(seen.value).toBe('gone');
    expect(clock.pending).toBe(0);
  });

  it('never starts the work for a signal already aborted', async () => {
    const clock = new VirtualClock();
    const caller = new AbortController();
    caller.abort();
    const work = jest.fn(() => Promise.resolve('answer'));
    await expect(
      deadline(work, { scheduler: clock, ms: 100, signal: caller.signal, onAbort: () => 'gone' }),
    ).resolves.toBe('gone');
    expect(work).not.toHaveBeenCalled();
  });

  it('rejects with what the work throws, synchronously or not', async () => {
    const clock = new VirtualClock();
    const thrown = new Error('bad');
    await expect(
      deadline(
        () => {
          throw thrown;
        },
        { scheduler: clock, ms: 100 },
      ),
    ).rejects.toBe(thrown);
    await expect(deadline(() => Promise.reject(thrown), { scheduler: clock })).rejects.toBe(thrown);
    expect(clock.pending).toBe(0);
  });

  it('ends with onAbort when the work itself aborts the signal as it starts', async () => {
    const clock = new VirtualClock();
    const caller = new AbortController();
    let cut: AbortSignal | undefined;
    const seen = outcome(
      deadline(
        (signal) => {
          cut = signal;
          caller.abort();
          return new Promise<string>(() => undefined);
        },
        { scheduler: clock, ms: 100, signal: caller.signal, onAbort: () => 'gone' },
      ),
    );
    await settle();
    expect(seen).toEqual({ value: 'gone', settled: true });
    expect(cut?.aborted).toBe(true);
    expect(clock.pending).toBe(0);
  });

  it('starts the work before it arms the timer, and arms none for a work that throws at once', async () => {
    const clock = new VirtualClock();
    const order: string[] = [];
    const scheduler = {
      now: () => clock.now(),
      schedule: ((...args: Parameters<VirtualClock['schedule']>) => {
        order.push('timer');
        return clock.schedule(...args);
      }) as VirtualClock['schedule'],
    };
    const work = deferred<string>();
    const answered = deadline(() => (order.push('work'), work.promise), { scheduler, ms: 100 });
    // A request goes out before its timeout is armed: in Node, arming one costs more than sending.
    expect(order).toEqual(['work', 'timer']);
    work.resolve('answer');
    await expect(answered).resolves.toBe('answer');
    order.length = 0;
    await expect(
      deadline(
        () => {
          throw new Error('bad');
        },
        { scheduler, ms: 100 },
      ),
    ).rejects.toThrow('bad');
    expect(order).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});

describe('sleep()', () => {
  it('resolves after ms on the scheduler, or at once on an abort', async () => {
    const clock = new VirtualClock();
    const woke = outcome(sleep(clock, 50));
    clock.advanceBy(49);
    await settle();
    expect(woke.settled).toBe(false);
    clock.advanceBy(1);
    await settle();
    expect(woke.settled).toBe(true);
    const caller = new AbortController();
    const cut = outcome(sleep(clock, 50, caller.signal));
    caller.abort();
    await settle();
    expect(cut.settled).toBe(true);
    expect(clock.pending).toBe(0);
  });

  function outcome(promise: Promise<void>) {
    const seen = { settled: false };
    void promise.then(() => (seen.settled = true));
    return seen;
  }
});
