import { config } from 'rxjs';
import { BillingError } from '../../../lib/shared/errors';
import type { BillingEvent } from '../../../lib/shared/billing-event';
import { createEventHub } from '../../../lib/features/events/event-hub';

const CANARY = 'canary-6f1d-secret';
const failed = (at: number): BillingEvent => ({
  type: 'consume:failed',
  at,
  wallTime: at,
  call: 1,
  externalId: 'order-1',
  attempts: 1,
  error: new BillingError('backend', `backend said ${CANARY}`, { backendCode: 500 }),
  unanswered: false,
});
const loaded = (at: number): BillingEvent => ({ type: 'usage:loaded', at, wallTime: at, attempts: 1 });

let consoleError: jest.SpyInstance;
beforeEach(() => (consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined)));
afterEach(() => consoleError.mockRestore());

describe('createEventHub', () => {
  it('is inactive with neither onEvent nor a subscriber, so the engine builds no events', () => {
    const hub = createEventHub();
    expect(hub.active()).toBe(false);
    const subscription = hub.events$.subscribe();
    expect(hub.active()).toBe(true);
    subscription.unsubscribe();
    expect(hub.active()).toBe(false);
    expect(createEventHub(() => undefined).active()).toBe(true);
  });

  it('delivers each event, frozen, to onEvent and then to every subscriber', () => {
    const order: string[] = [];
    const hub = createEventHub((event) => order.push(`onEvent ${event.at}`));
    hub.events$.subscribe((event) => order.push(`a ${event.at}`));
    hub.events$.subscribe((event) => order.push(`b ${event.at}`));
    const event = loaded(1);
    hub.emit(event);
    hub.emit(loaded(2));
    expect(order).toEqual(['onEvent 1', 'a 1', 'b 1', 'onEvent 2', 'a 2', 'b 2']);
    expect(Object.isFrozen(event)).toBe(true);
  });

  it('reports a throwing onEvent once, by type and code only, and keeps delivering', () => {
    const seen: number[] = [];
    const hub = createEventHub(() => {
      throw new Error('app bug');
    });
    hub.events$.subscribe((event) => seen.push(event.at));
    expect(() => hub.emit(failed(1))).not.toThrow();
    expect(() => hub.emit(failed(2))).not.toThrow();
    hub.emit(loaded(3));
    expect(seen).toEqual([1, 2, 3]);
    expect(consoleError).toHaveBeenCalledTimes(1);
    const [message, thrown] = consoleError.mock.calls[0] as [string, Error];
    expect(message).toContain('onEvent threw on "consume:failed" (backend)');
    expect(thrown.message).toBe('app bug');
    expect(JSON.stringify(consoleError.mock.calls)).not.toContain(CANARY);
  });

  it("never logs the event's error when onEvent rethrows it", () => {
    const hub = createEventHub((event) => {
      if (event.type === 'consume:failed') throw event.error;
    });
    hub.emit(failed(1));
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(consoleError.mock.calls[0]?.[1]).toBe('backend');
    expect(String(consoleError.mock.calls[0])).not.toContain(CANARY);
  });

  it('a throwing events$ subscriber breaks neither emit nor the other listeners', async () => {
    const unhandled: unknown[] = [];
    const previous = config.onUnhandledError;
    config.onUnhandledError = (error) => unhandled.push(error);
    try {
      const got: string[] = [];
      const hub = createEventHub((event) => got.push(`onEvent ${event.at}`));
      hub.events$.subscribe(() => {
        throw new Error('subscriber bug');
      });
      hub.events$.subscribe((event) => got.push(`b ${event.at}`));
      expect(() => hub.emit(loaded(1))).not.toThrow();
      hub.emit(loaded(2));
      expect(got).toEqual(['onEvent 1', 'b 1', 'onEvent 2', 'b 2']);
      // RxJS reports a subscriber's throw on a later macrotask, as for any Observable.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).toEqual([new Error('subscriber bug'), new Error('subscriber bug')]);
    } finally {
      config.onUnhandledError = previous;
    }
  });

  it('complete() ends events$ and silences later emits', () => {
    const onEvent = jest.fn();
    const hub = createEventHub(onEvent);
    const complete = jest.fn();
    hub.events$.subscribe({ complete });
    hub.complete();
    hub.emit(loaded(1));
    expect(complete).toHaveBeenCalledTimes(1);
    expect(onEvent).not.toHaveBeenCalled();
    expect(hub.active()).toBe(false);
  });
});
