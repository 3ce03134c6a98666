import { Observable, Subject, type Subscription } from 'rxjs';
import type { BillingError } from '../../shared/errors';
import type { RecoveredConsume } from '../../shared/feature-types';
import type { BillingConsumeResult, ConsumeOutcome } from '../../shared/types';
import type { ConsumeJournal, Recovery } from '../feature';

/**
 * Consumes an earlier page sent but never heard back from, sent again with the
 * same id (the backend's idempotency makes that at most one charge), and
 * `recovered$`, which replays each outcome to every subscriber, then completes.
 */
export class Replays implements Recovery {
  private readonly outcomes: RecoveredConsume[] = [];
  private readonly live = new Subject<RecoveredConsume>();
  private done = false;
  // Replays whose outcome is yet to be reported; -1 until the journal said which.
  private inFlight = -1;
  readonly recovered$ = new Observable<RecoveredConsume>((subscriber) => {
    for (const outcome of this.outcomes) subscriber.next(outcome);
    if (this.done) subscriber.complete();
    else return this.live.subscribe(subscriber);
    return undefined;
  });

  constructor(private readonly journal: ConsumeJournal) {}

  /** Starts the replays the journal names; the wait for it ends with the subscription returned. */
  start(submit: (externalId: string) => Promise<BillingConsumeResult>): Subscription {
    let heard = false;
    // Without an answer (a journal that failed) nothing is replayed.
    const none = () => heard || this.complete();
    return this.journal.pending().subscribe({
      next: (externalIds) => {
        if (heard) return;
        heard = true;
        this.inFlight = externalIds.length;
        if (externalIds.length === 0) this.complete();
        for (const externalId of externalIds) {
          submit(externalId)
            .then(
              (result): ConsumeOutcome => ({ ok: true, result }),
              (error: unknown): ConsumeOutcome => ({ ok: false, error: error as BillingError }),
            )
            .then((outcome) => this.report({ externalId, outcome }));
        }
      },
      error: none,
      complete: none,
    });
  }

  /** On dispose: completes now, or once the replays just settled have reported. */
  stop(): void {
    if (this.inFlight <= 0) this.complete();
  }

  private report(recovered: RecoveredConsume): void {
    this.outcomes.push(recovered);
    this.live.next(recovered);
    if (--this.inFlight === 0) this.complete();
  }

  private complete(): undefined {
    if (!this.done) {
      this.done = true;
      this.live.complete();
    }
    return undefined;
  }
}
