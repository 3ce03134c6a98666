import type { BillingCheckResult, UsageInfo } from '../../lib';
import type { ConsumeEntry } from './consume-log';
import {
  describeEvent,
  describePreview,
  describeStatus,
  type PageEvent,
  type PagePreview,
  type PageStatus,
} from './status-lines';

// The events log keeps the newest entries only.
const EVENTS_SHOWN = 50;

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

const VERDICTS: Record<BillingCheckResult['reason'], string> = {
  free_period: 'Free: a free period is active',
  free_count: 'Free: uses a free quota unit',
  credits: 'Paid: deducts credits',
  insufficient: 'Refused: not enough credits',
};

function summarize(usage: UsageInfo | null): string {
  if (usage === null) return 'Loading the quota…';
  const { freeRemaining, freeTotal, creditsPerUse, creditsBalance } = usage;
  const free = freeRemaining > 0 ? `${freeRemaining} of ${freeTotal} free uses left, then` : 'no free use left,';
  const period = usage.inFreePeriod ? '; free period active' : '';
  const disabled = usage.isEnabled ? '' : 'billing disabled; ';
  return `${disabled}${free} ${creditsPerUse} credits per use from a balance of ${creditsBalance}${period}`;
}

/** The page's elements and how each piece of state is drawn on them. */
export class View {
  readonly userSelect = byId<HTMLSelectElement>('user');
  readonly exportButton = byId<HTMLButtonElement>('export');
  readonly resetButton = byId<HTMLButtonElement>('reset');
  readonly topUpButton = byId<HTMLButtonElement>('top-up-elsewhere');
  private readonly story = byId('story');
  private readonly verdict = byId('verdict');
  private readonly countdown = byId('countdown');
  private readonly noFreePeriod = byId('no-free-period');
  private readonly warning = byId('warning');
  private readonly log = byId<HTMLOListElement>('log');
  private readonly status = byId('status');
  private readonly preview = byId('preview');
  private readonly events = byId<HTMLOListElement>('events');

  // The user's starting point, from the server's demo data; it never changes,
  // so it is the user picker's tooltip, not the line under "Usage (usage$)".
  showStory(text: string): void {
    this.userSelect.title = text;
  }

  showUsage(usage: UsageInfo | null): void {
    // The grey line says what the figures below say, from the same usage$ emission.
    this.story.textContent = summarize(usage);
    const text = (value: unknown) => (usage === null ? '–' : String(value));
    byId('free-remaining').textContent = text(usage?.freeRemaining);
    byId('free-total').textContent = text(usage?.freeTotal);
    byId('credits-per-use').textContent = text(usage?.creditsPerUse);
    byId('credits-balance').textContent = text(usage?.creditsBalance);
    byId('is-enabled').textContent = text(usage?.isEnabled ? 'yes' : 'no');
    byId('in-free-period').textContent = text(usage?.inFreePeriod ? 'yes' : 'no');
  }

  // Before the first answer check() says `insufficient`: that is "not known yet", not a
  // refusal, so the page says loading and the button offers no top-up.
  showVerdict(result: BillingCheckResult, loaded: boolean): void {
    const unknown = !loaded && !result.canProceed;
    this.verdict.textContent = unknown ? 'No verdict yet: usage not loaded' : VERDICTS[result.reason];
    this.verdict.dataset['reason'] = unknown ? 'loading' : result.reason;
    this.verdict.dataset['canProceed'] = unknown ? '' : String(result.canProceed);
    this.exportButton.textContent = unknown
      ? 'Export (loading…)'
      : result.reason === 'insufficient'
        ? 'Export (top up first)'
        : 'Export';
  }

  showStatus(status: PageStatus, now: number): void {
    this.status.textContent = describeStatus(status, now);
    this.status.dataset['loaded'] = String(status.loaded);
    this.status.dataset['loading'] = String(status.loading);
    this.status.dataset['pending'] = String(status.pending);
    this.status.dataset['error'] = status.error?.code ?? '';
  }

  showPreview(preview: PagePreview): void {
    this.preview.textContent = describePreview(preview);
    this.preview.dataset['reason'] =
      preview.cost === null && preview.reason !== 'free_period' ? 'loading' : preview.reason;
    this.preview.dataset['canProceed'] = String(preview.canProceed);
  }

  addEvent(event: PageEvent): void {
    const item = document.createElement('li');
    item.dataset['testid'] = 'event';
    item.dataset['type'] = event.type;
    if ('externalId' in event) item.dataset['externalId'] = event.externalId ?? '';
    if ('error' in event) item.dataset['code'] = event.error.code;
    item.textContent = describeEvent(event);
    this.events.prepend(item);
    while (this.events.children.length > EVENTS_SHOWN) this.events.lastElementChild?.remove();
  }

  /** A new client's events start a new log. */
  clearEvents(): void {
    this.events.replaceChildren();
  }

  showCountdown(seconds: number): void {
    this.countdown.dataset['seconds'] = String(seconds);
    this.countdown.textContent = `${seconds} s left`;
    this.countdown.hidden = seconds === 0;
    this.noFreePeriod.hidden = seconds !== 0;
  }

  showWarning(visible: boolean): void {
    this.warning.hidden = !visible;
  }

  addLogEntry(user: string, entry: ConsumeEntry, wire: string): void {
    const item = document.createElement('li');
    item.dataset['kind'] = entry.kind;
    item.dataset['testid'] = 'log-entry';
    const cells: Array<[string, string]> = [
      ['kind', entry.title],
      ['user', user],
      ['detail', entry.detail],
      ['wire', wire],
    ];
    for (const [name, value] of cells) {
      const cell = document.createElement('span');
      cell.className = name;
      cell.textContent = value;
      cell.style.whiteSpace = 'pre-line';
      item.append(cell);
    }
    this.log.prepend(item);
  }
}
