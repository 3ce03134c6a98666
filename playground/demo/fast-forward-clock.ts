import { VirtualTimeScheduler } from 'rxjs';

/**
 * The client's clock for the walk-through: it only moves when told, so the
 * 30 s free period can be skipped in an instant through the `scheduler`
 * option instead of waited for.
 */
export class FastForwardClock extends VirtualTimeScheduler {
  /** Fires every timer due within `ms` (the free period's end among them), then sets the clock there. */
  advanceBy(ms: number): void {
    const target = this.frame + ms;
    this.maxFrames = target;
    this.flush();
    this.frame = target;
  }
}
