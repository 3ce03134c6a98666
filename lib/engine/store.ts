import { BehaviorSubject } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { reduce } from '../core/reducer';
import { initialState, type BillingState } from '../core/state';
import type { StateSource } from './effect';

/**
 * The quota store: a `BehaviorSubject` of the state, changed only by
 * dispatching actions through the pure reducer.
 */
export class Store {
  private readonly subject = new BehaviorSubject<BillingState>(initialState);
  /** Every state as it comes, and `value`, the current one. */
  readonly state$: StateSource = this.subject;

  get state(): BillingState {
    return this.subject.value;
  }

  dispatch(action: BillingAction): void {
    if (this.subject.closed || this.subject.isStopped) return;
    const next = reduce(this.subject.value, action);
    // Unchanged state emits nothing, so views never see a no-op.
    if (next !== this.subject.value) this.subject.next(next);
  }

  complete(): void {
    this.subject.complete();
  }
}
