import { createClient, type Client, type ClientOptions, reloadSafe, tabSync, type FetchLike } from '../../lib';
import { TabScheduler } from '../model/tab-scheduler';
import { BASE_URL, UserBackend, type Quota } from './client-fixture';
import { ChannelHub, installFakeChannel } from './fake-channel';
import { FakeLocks, type LocksFlaws } from './fake-locks';
import type { MemoryStorage } from './memory-storage';
import { settle, VirtualClock } from './virtual-clock';
import { Wire } from './wire-log';

/** One page: a client on its own monotonic clock (its origin is the page's start). */
export type Page = Client & { readonly index: number; readonly scheduler: TabScheduler };

export interface PageOptions {
  readonly sync?: boolean;
  readonly storage?: MemoryStorage;
  /** The storage is the tab's own (`sessionStorage`); default shared (`localStorage`). */
  readonly perTab?: boolean;
  readonly client?: Partial<ClientOptions>;
  /** How the page was reached (`performance.getEntriesByType('navigation')`); none by default, as in Node. */
  readonly navigation?: 'navigate' | 'reload';
  /** How long before now the page's navigation started: its monotonic clock reads that much at start. */
  readonly startedMsAgo?: number;
}

type PageListener = (event: { persisted?: boolean }) => void;

/**
 * A browser in Node: pages on one virtual timeline and one wall clock (which a
 * test may step), the fake `BroadcastChannel` and Web Locks (`webLocks: false`:
 * none), and the reference backend in-process. A page that dies keeps no timer,
 * lock or message, and never hears an answer.
 */
export class Browser {
  readonly clock = new VirtualClock(0);
  readonly hub = new ChannelHub();
  readonly locks: FakeLocks;
  readonly backend: UserBackend;
  readonly pages: Page[] = [];
  /** Every request, as it left its page. */
  readonly sent: Array<{ readonly page: number; readonly path: string; readonly externalId?: string }> = [];
  wallOffset = 1_700_000_000_000;
  /** Requests (of one page, or all) wait before the backend or after it applied them, until `release()`. */
  hold: { readonly at: 'requests' | 'answers'; readonly page?: Page } | null = null;
  private held: Array<() => void> = [];
  private readonly options = new Map<number, PageOptions>();
  /** Each page's `window` listeners (pagehide, pageshow), by page. */
  private readonly windows = new Map<number, Map<string, Set<PageListener>>>();
  private readonly restore = installFakeChannel(() => this.hub);

  constructor(
    patch: Partial<Quota> = {},
    private readonly platform: { readonly webLocks?: boolean; readonly locks?: LocksFlaws } = {},
  ) {
    this.backend = new UserBackend(patch);
    this.locks = new FakeLocks(platform.locks);
  }

  readonly wallNow = (): number => this.clock.now() + this.wallOffset;

  open(options: PageOptions = {}): Page {
    const index = this.pages.length;
    const origin = this.clock.now() - (options.startedMsAgo ?? 1_000 * (index + 7));
    const scheduler = new TabScheduler(this.clock, this.wallNow, origin);
    this.options.set(index, options);
    const locks = this.platform.webLocks === false ? null : this.locks.forTab(index);
    const { storage, perTab = false } = options;
    this.hub.creating = { tab: index, busy: () => scheduler.isBusy, dead: () => scheduler.isDead };
    const undo = this.asPage(index, options.navigation);
    const client = (() => {
      try {
        return createClient({
          baseUrl: BASE_URL,
          appKey: 'poster',
          scheduler,
          fetch: this.fetchFor(index, scheduler),
          ...(options.sync === true ? { sync: tabSync({ locks }) } : {}),
          ...(storage === undefined ? {} : { storage: reloadSafe(storage, { locks, perTab }) }),
          ...options.client,
        });
      } finally {
        undo();
      }
    })();
    this.hub.creating = null;
    this.pages.push({ ...client, index, scheduler });
    return this.pages[index] as Page;
  }

  /**
   * A reload of `page`: its `pagehide` listeners run (unless `hidden` is false: a crash), it dies,
   * and a page on the same options starts whose navigation began `navigationMs` before now.
   */
  reload(page: Page, { navigationMs = 300, hidden = true } = {}): Page {
    if (hidden) this.hide(page);
    this.kill(page);
    return this.open({ ...this.options.get(page.index), navigation: 'reload', startedMsAgo: navigationMs });
  }

  /** Runs the `pagehide` listeners of `page`. */
  hide(page: Page, persisted = false): void {
    this.windows
      .get(page.index)
      ?.get('pagehide')
      ?.forEach((listener) => listener({ persisted }));
  }

  /** How many `window` listeners the pages still have. */
  windowListeners(): number {
    return [...this.windows.values()].flatMap((types) => [...types.values()]).reduce((n, set) => n + set.size, 0);
  }

  // While a page's client is created, `globalThis` is that page's window: its listeners and its navigation.
  private asPage(index: number, navigation: PageOptions['navigation']): () => void {
    const types = new Map<string, Set<PageListener>>();
    this.windows.set(index, types);
    const set = (type: string) => types.get(type) ?? types.set(type, new Set()).get(type) ?? new Set();
    const page = globalThis as Record<string, unknown>;
    const perf = performance as unknown as Record<string, unknown>;
    const saved = { add: page['addEventListener'], remove: page['removeEventListener'] };
    page['addEventListener'] = (type: string, listener: PageListener) => set(type).add(listener);
    page['removeEventListener'] = (type: string, listener: PageListener) => set(type).delete(listener);
    perf['getEntriesByType'] = (type: string) => (type === 'navigation' && navigation ? [{ type: navigation }] : []);
    return () => {
      delete perf['getEntriesByType'];
      if (saved.add === undefined) delete page['addEventListener'];
      else page['addEventListener'] = saved.add;
      if (saved.remove === undefined) delete page['removeEventListener'];
      else page['removeEventListener'] = saved.remove;
    };
  }

  private fetchFor(page: number, scheduler: TabScheduler): FetchLike {
    const wire = new Wire(this.backend.fetch);
    wire.pace = async ({ path, externalId }, answer) => {
      if (answer === undefined) this.sent.push({ page, path, externalId });
      const at = answer === undefined ? 'requests' : 'answers';
      if (this.hold?.at === at && (this.hold.page?.index ?? page) === page) {
        await new Promise<void>((resolve) => this.held.push(resolve));
      }
      // A page that died hears nothing more (and sends nothing it had not sent).
      if (scheduler.isDead) await new Promise(() => undefined);
    };
    return wire.fetch;
  }

  release(): void {
    this.hold = null;
    this.held.splice(0).forEach((go) => go());
  }

  /** The page goes away without a word (a crash, a reload, a closed tab): its storage stays as it was. */
  kill(page: Page): void {
    page.scheduler.kill();
    this.locks.kill(page.index);
  }

  /** Requests of `path` sent by `page` (any page when omitted). */
  count(path: string, page?: Page): number {
    return this.sent.filter((s) => s.path === path && s.page === (page?.index ?? s.page)).length;
  }

  /** Runs what is due now: promise chains, the backend, channel deliveries. */
  async settle(): Promise<void> {
    for (let round = 0, calm = 0; calm < 2; round++) {
      if (round === 200) throw new Error('the browser never settled');
      await settle(10);
      calm = this.hub.flush() > 0 ? 0 : calm + 1;
    }
  }

  /** Moves time by `ms`, stopping at every timer so that what it starts runs at its time. */
  async advance(ms: number): Promise<void> {
    const target = this.clock.now() + ms;
    for (let next = this.clock.nextDue(); next !== undefined && next <= target; next = this.clock.nextDue()) {
      this.clock.advanceBy(Math.max(0, next - this.clock.now()));
      await this.settle();
    }
    this.clock.advanceBy(target - this.clock.now());
    await this.settle();
  }

  /** Listens and posts on a scope's channel like another page of the origin. */
  listen(scope = 'generator_poster'): { readonly messages: unknown[]; post(data: unknown): void } {
    const channel = this.hub.open(`unified-billing:${scope}`, { tab: -1, busy: () => false, dead: () => false });
    const messages: unknown[] = [];
    channel.onmessage = ({ data }) => messages.push(data);
    return { messages, post: (data) => channel.postMessage(data) };
  }

  close(): void {
    this.release();
    this.pages.forEach((page) => page.billing.dispose());
    this.restore();
  }
}
