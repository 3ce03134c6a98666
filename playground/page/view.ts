import type { BillingCheckResult, UsageInfo } from '../../lib';
import type { ConsumeEntry } from './consume-log';

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
  private readonly story = byId('story');
  private readonly verdict = byId('verdict');
  private readonly countdown = byId('countdown');
  private readonly noFreePeriod = byId('no-free-period');
  private readonly warning = byId('warning');
  private readonly log = byId<HTMLOListElement>('log');

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

  showVerdict(result: BillingCheckResult): void {
    this.verdict.textContent = VERDICTS[result.reason];
    this.verdict.dataset['reason'] = result.reason;
    this.verdict.dataset['canProceed'] = String(result.canProceed);
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
