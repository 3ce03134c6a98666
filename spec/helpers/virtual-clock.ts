import { VirtualTimeScheduler } from 'rxjs';

/**
 * A virtual-time scheduler the test advances by hand; `pending` counts the
 * timers still armed, so a test can assert that none leaked.
 */
export class VirtualClock extends VirtualTimeScheduler {
  constructor(start = 1_000_000) {
    super();
    this.frame = start;
  }

  /** Runs every timer due up to `now() + ms`, in order, then sets the clock there. */
  advanceBy(ms: number): void {
    const target = this.frame + ms;
    this.maxFrames = target;
    this.flush();
    this.frame = target;
  }

  /** The time of the next armed timer, if any. */
  nextDue(): number | undefined {
    return this.actions.find((action) => !action.closed)?.delay;
  }

  get pending(): number {
    return this.actions.filter((action) => !action.closed).length;
  }
}

/** Lets promise chains and I/O callbacks that are already due run. */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
