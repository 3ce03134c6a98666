import type { Subscription } from 'rxjs';
import type { Reply } from './reply';

/** How a flight ends: with the value for every reply that joined it, or an error. */
export interface FlightEnd<T> {
  value(value: T): void;
  error(error: unknown): void;
}

interface Flight<T> {
  readonly waiters: Set<Reply<T>>;
  subscription: Subscription | null;
}

/**
 * Requests that arrive while one is in flight join it instead of sending
 * another; `fresh` starts a new one (which later requests join). A flight all
 * of whose replies left (aborted) is cancelled.
 */
export class SharedFlights<T> {
  private current: Flight<T> | null = null;
  private readonly live = new Set<Flight<T>>();

  constructor(private readonly start: (end: FlightEnd<T>) => Subscription) {}

  join(reply: Reply<T>, fresh: boolean): void {
    const joined = this.current !== null && !fresh ? this.current : null;
    const flight: Flight<T> = joined ?? { waiters: new Set(), subscription: null };
    flight.waiters.add(reply);
    reply.cancel = () => {
      flight.waiters.delete(reply);
      if (flight.waiters.size > 0) return;
      this.end(flight);
      flight.subscription?.unsubscribe();
    };
    if (joined === null) this.launch(flight);
  }

  // The reply joins before the start: a request can fail at once (headers refused before sending).
  private launch(flight: Flight<T>): void {
    this.current = flight;
    this.live.add(flight);
    const finish = (settle: (reply: Reply<T>) => void) => {
      this.end(flight);
      flight.waiters.forEach(settle);
    };
    const subscription = this.start({
      value: (value) => finish((reply) => reply.resolve(value)),
      error: (error) => finish((reply) => reply.reject(error)),
    });
    if (this.live.has(flight)) flight.subscription = subscription;
  }

  private end(flight: Flight<T>): void {
    if (this.current === flight) this.current = null;
    this.live.delete(flight);
  }

  /** Cancels every flight (on dispose). */
  stop(): void {
    this.current = null;
    this.live.forEach((flight) => flight.subscription?.unsubscribe());
    this.live.clear();
  }
}
