import { BehaviorSubject, type Observable, type SchedulerLike } from 'rxjs';
import type { BillingState } from '../core/state';
import type { BillingError } from '../errors';
import type { BillingEvent } from '../events/billing-event';
import { createEventHub } from '../events/event-hub';
import { initialStatus, nextStatus, type BillingStatus, type StatusSignal } from '../status/billing-status';
import type { BillingConsumeResult } from '../types';
import type { ConsumeRequest } from './requests';

const CONSUME_OK: StatusSignal = Object.freeze({ kind: 'consume', error: null });

/**
 * What the engine tells about itself: the status (a pure fold of what the
 * effects report, replayed by `status$`) and the events (built only while
 * someone listens: the `onEvent` option or a subscriber of `events$`).
 */
export class Monitor {
  private state = initialStatus;
  private readonly status = new BehaviorSubject<BillingStatus>(initialStatus.view);
  private readonly hub;
  readonly status$: Observable<BillingStatus> = this.status.asObservable();
  readonly events$: Observable<BillingEvent>;

  constructor(
    private readonly scheduler: SchedulerLike,
    onEvent?: (event: BillingEvent) => void,
  ) {
    this.hub = createEventHub(onEvent);
    this.events$ = this.hub.events$;
  }

  get current(): BillingStatus {
    return this.state.view;
  }

  /** Whether an event would reach anyone: callers build none otherwise. */
  get listening(): boolean {
    return this.hub.active();
  }

  note(signal: StatusSignal): void {
    const next = nextStatus(this.state, signal);
    if (next === this.state) return;
    const changed = next.view !== this.state.view;
    this.state = next;
    if (changed && !this.status.isStopped) this.status.next(next.view);
  }

  /** Delivers an event; callers build one only when {@link listening}. */
  emit(event: BillingEvent): void {
    this.hub.emit(event);
  }

  /** What a settled consume tells: its status signal, and its event if anyone listens. */
  consumed(request: ConsumeRequest, ok: boolean, outcome: unknown): void {
    const at = this.scheduler.now();
    const externalId = request.externalId ?? null;
    if (!ok) {
      const error = outcome as BillingError;
      this.note({ kind: 'consume', error });
      if (!this.listening) return;
      if (error.code === 'insufficient_credits')
        this.emit({ type: 'consume:denied', at, externalId: externalId ?? '' });
      else this.emit({ type: 'consume:failed', at, externalId, error });
      return;
    }
    this.note(CONSUME_OK);
    if (!this.listening) return;
    const result = outcome as BillingConsumeResult;
    if (result.isBlacklisted) this.emit({ type: 'consume:blacklisted', at, externalId: externalId ?? '' });
    else if (request.charged !== null)
      this.emit({ type: 'consume:charged', at, externalId: externalId ?? '', isCredit: result.isCredit });
    else this.emit({ type: 'consume:free', at, externalId });
  }

  /** A consume the free period answered at once; nothing is built unless someone listens. */
  freeConsume(externalId: string | undefined): void {
    this.note(CONSUME_OK);
    if (this.listening) this.emit({ type: 'consume:free', at: this.scheduler.now(), externalId: externalId ?? null });
  }

  /**
   * Applies this client's usage answer with `apply` (dispatching its fact): the
   * status turns loaded and stops loading in one change, as the cache fills.
   */
  usageAnswered(at: number, apply: () => void): void {
    this.answeredAt = at;
    apply();
    if (this.answeredAt !== null) this.note({ kind: 'usage', error: null, at });
    this.answeredAt = null;
  }

  private answeredAt: number | null = null;

  /** Free-period and cache transitions of the store. */
  stateChanged(previous: BillingState, state: BillingState): void {
    if (previous.quota === null && state.quota !== null && !this.state.view.loaded) {
      const at = this.answeredAt;
      this.answeredAt = null;
      this.note(at === null ? { kind: 'usage/cached', at: this.scheduler.now() } : { kind: 'usage', error: null, at });
    }
    if ((previous.freePeriodEnd === null) === (state.freePeriodEnd === null) || !this.listening) return;
    const type = state.freePeriodEnd === null ? 'freePeriod:ended' : 'freePeriod:started';
    this.emit({ type, at: this.scheduler.now() });
  }

  complete(): void {
    this.status.complete();
    this.hub.complete();
  }
}
