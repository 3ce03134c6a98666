import { createClient } from '../../lib/client/create-client';
import type { BillingError } from '../../lib/shared/errors';
import { reloadSafe } from '../../lib/features/persist';
import { tabSync } from '../../lib/features/sync';
import { ReferenceState } from '../../lib/testing/backend/reference-state';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import type { Client } from '../../lib/store/billing-module';
import type { RecoveredConsume } from '../../lib/shared/feature-types';
import { VirtualClock } from '../helpers/virtual-clock';
import { MemoryStorage } from '../helpers/memory-storage';
import { ChannelHub, securityError } from '../helpers/fake-channel';
import { FakeLocks, type QueryMode } from '../helpers/fake-locks';
import { GatedNetwork, type Exchange } from './gated-network';
import { TabScheduler } from './tab-scheduler';

export const TOKEN = 'lifecycle-user';
export const MODULE = 'generator_poster';

/**
 * The platform of a run: whether tabs use `tabSync()`, whether the browser has Web Locks, and whether
 * pages share one storage (`localStorage`) or each tab has its own (`sessionStorage`, copied by a duplicate).
 * `channel` and `query` draw a broken platform: a `BroadcastChannel` whose constructor or `postMessage`
 * throws, and Web Locks whose `query()` is missing, throws, rejects or answers with junk entries.
 */
export interface Platform {
  readonly sync: boolean;
  readonly webLocks: boolean;
  readonly shared: boolean;
  readonly channel?: 'ok' | 'throwsOnOpen' | 'throwsOnPost';
  readonly query?: QueryMode;
}

export type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: BillingError };

/** One call a caller made, from start to the outcome it heard (if any). */
export interface Call {
  readonly index: number;
  readonly tab: number;
  readonly kind: 'consume' | 'getUsage' | 'refreshCredits';
  readonly externalId: string | undefined;
  readonly controller: AbortController;
  /** Made without a signal (`getUsage()` as a plain call): nobody can abort it. */
  readonly plain: boolean;
  readonly startEvent: number;
  /** Virtual (monotonic) times it started and settled, for the bound every call must settle within. */
  readonly startAt: number;
  settledEvent?: number;
  settledAt?: number;
  outcome?: Outcome;
  /** Resolves once the caller heard its outcome. */
  readonly settledPromise: Promise<void>;
  /** Its tab's storage refused writes while it was open: its journal entry may never have been kept. */
  unjournaled?: boolean;
}

/** An outcome a later client told through `recovered$`. */
export interface Recovered {
  readonly tab: number;
  readonly event: number;
  readonly at: number;
  readonly item: RecoveredConsume;
}

export interface Tab {
  readonly index: number;
  readonly storage: MemoryStorage;
  readonly scheduler: TabScheduler;
  readonly client: Client;
  status: 'live' | 'disposed' | 'dead';
  /** Event when its client was created (its channel opened): it hears what other tabs post from then on. */
  readonly openedEvent: number;
  /** The tab whose storage this one's was copied from (a duplicated tab). */
  copiedFrom?: number;
  /** Event when its `recovered$` completed: the replays of what an earlier page left are over. */
  recoveredDone?: number;
  /** Event and virtual time when it was disposed or died. */
  endedEvent?: number;
  endedAt?: number;
  /** Virtual times its main thread was blocked: `[from, to)`, `to` absent while it still is. */
  readonly busy: Array<[number, number | undefined]>;
  /** Opened by the churn command (created and disposed at once), not one of the model's pages. */
  churned?: boolean;
}

/** The backend's state after each change: the versions answers are dated by. */
export interface Version {
  readonly free: number;
  readonly balance: number;
}

export interface InitialQuota {
  readonly free: number;
  readonly price: number;
  readonly balance: number;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Everything one run of the lifecycle model drives: one virtual clock shared
 * by every tab, an in-process reference backend behind a gated network, a
 * controllable channel, a lock manager, and the clients (tabs), alive or not.
 */
export class World {
  readonly clock = new VirtualClock();
  readonly state: ReferenceState;
  readonly network: GatedNetwork;
  readonly hub = new ChannelHub();
  readonly locks: FakeLocks;
  readonly tabs: Tab[] = [];
  readonly calls: Call[] = [];
  readonly recovered: Recovered[] = [];
  readonly versions: Version[] = [];
  /** Version of the first (charging) answer of each external_id. */
  readonly chargedAt = new Map<string, number>();
  /** The exchange the backend first charged each external_id for. */
  readonly firstCharge = new Map<string, Exchange>();
  /** Violations seen as they happened (a charge nobody was waiting for). */
  readonly violations: string[] = [];
  /** How far the wall clock pages read (`Date.now`) is from the monotonic timeline: the model steps it. */
  wallOffset = 0;
  /** Each step of the wall clock: when (monotonic time) and by how much. */
  readonly wallSteps: Array<{ readonly at: number; readonly ms: number }> = [];
  /** A tab was busy or the channel late at some point: an owner asked for its period may not answer in time. */
  slowAnswers = false;
  /** The one storage of a shared-storage run. */
  readonly sharedStorage = new MemoryStorage();
  private events = 0;
  private freshIds = 0;

  constructor(
    readonly initial: InitialQuota,
    readonly platform: Platform,
  ) {
    this.locks = new FakeLocks(
      platform.query === undefined || platform.query === 'ok' ? {} : { query: platform.query },
    );
    if (platform.channel === 'throwsOnOpen') this.hub.openThrows = securityError();
    if (platform.channel === 'throwsOnPost') this.hub.postThrows = securityError();
    this.state = new ReferenceState([
      {
        token: TOKEN,
        freeRemaining: initial.free,
        freeTotal: initial.free,
        creditsPerUse: initial.price,
        creditsBalance: initial.balance,
      },
    ]);
    this.versions.push(this.snapshot());
    this.network = new GatedNetwork(this.state, {
      event: () => this.event(),
      now: () => this.clock.now(),
      tabBusy: (tab) => this.tabs[tab]?.scheduler.isBusy ?? false,
      tabDead: (tab) => this.tabs[tab]?.status === 'dead',
      applied: (exchange) => this.applied(exchange),
    });
  }

  event(): number {
    return ++this.events;
  }

  freshId(): string {
    return `op-${++this.freshIds}`;
  }

  private snapshot(): Version {
    const user = this.state.snapshot(TOKEN, MODULE);
    return { free: user.freeRemaining, balance: user.creditsBalance };
  }

  get version(): number {
    return this.versions.length - 1;
  }

  /** Dates a backend change; called after every change the backend makes. */
  bump(): void {
    const next = this.snapshot();
    const last = this.versions[this.versions.length - 1] as Version;
    if (next.free !== last.free || next.balance !== last.balance) this.versions.push(next);
  }

  private applied(exchange: Exchange): void {
    this.bump();
    exchange.appliedVersion = this.version;
    const id = exchange.externalId;
    if (exchange.path !== P.consume || id === undefined || exchange.answer?.body.code !== 0) return;
    if (this.chargedAt.has(id)) return;
    this.chargedAt.set(id, this.version);
    this.firstCharge.set(id, exchange);
    // A charge must be the work of a consume some caller is still waiting for (or a page that died
    // waiting): an id whose caller already heard "aborted" or "disposed" is an abandoned operation.
    const waiting = this.calls.some((c) => c.kind === 'consume' && c.externalId === id && c.outcome === undefined);
    // The window issue 23.6 leaves (docs/decisions.md, "A dead lock holder's POST"): a disposed or reloaded
    // client's `sent` that reaches the next holder more than its 500 ms grace after the client's lock went (a
    // late channel, a busy tab) lets that holder send the POST again, which a top-up in between can then charge
    // (seed 1823347359: refused, reloaded, re-sent after a top-up). Only then: with tab sync, in a run where
    // messages came late, sent again by another tab for a disposed or dead one, and not by a duplicate copied
    // after the call started (its storage holds the call's journal entry, and a journal replay paying for what
    // its opener abandoned stays a violation: the abandonCopied family). A duplicate copied before the call
    // (seed 955285481) holds no such entry: what it sends is the cross-tab re-send of the window.
    const charger = this.tabs[exchange.tab];
    const resentLate =
      this.platform.sync &&
      this.slowAnswers &&
      this.calls.some(
        (c) =>
          c.externalId === id &&
          c.tab !== exchange.tab &&
          !(charger?.copiedFrom === c.tab && charger.openedEvent > c.startEvent) &&
          this.tabs[c.tab]?.status !== 'live',
      );
    if (!waiting && !resentLate) {
      const told = this.calls
        .filter((c) => c.externalId === id && c.outcome?.ok === false)
        .map((c) => `tab ${c.tab} ${(c.outcome as { error: BillingError }).error.code}`);
      this.violations.push(
        `abandoned: ${id} charged by tab ${exchange.tab} after its caller was told [${told.join(', ')}]`,
      );
    }
  }

  /** Opens a client (a tab or a reloaded page) on `storage`; `laterLocks`: its lock requests are granted on a later turn. */
  open(storage: MemoryStorage, laterLocks = false): Tab {
    const index = this.tabs.length;
    const openedEvent = this.event();
    // With tabSync and Web Locks, recovered$ stays open for later re-sends (issue 30): the start's replays are
    // then known to be over at once only when the journal holds nothing they could replay.
    const nothingToReplay = storage.getItem('unified-billing:generator_poster:journal') === null;
    const scheduler = new TabScheduler(this.clock, () => this.clock.now() + this.wallOffset);
    this.hub.creating = { tab: index, busy: () => scheduler.isBusy, dead: () => scheduler.isDead };
    let client: Client;
    try {
      client = createClient({
        baseUrl: 'http://billing.test',
        appKey: 'poster',
        headers: { Authorization: `Bearer ${TOKEN}` },
        scheduler,
        fetch: this.network.fetchFor(index),
        // Where the browser has Web Locks, the journal asks them which pages live; without, nothing is replayed.
        storage: reloadSafe(storage, { perTab: !this.platform.shared, locks: this.locksFor(index, laterLocks) }),
        ...(this.platform.sync ? { sync: tabSync({ locks: this.locksFor(index, laterLocks) }) } : {}),
      });
    } finally {
      this.hub.creating = null;
    }
    const tab: Tab = { index, storage, scheduler, client, status: 'live', busy: [], openedEvent };
    this.tabs.push(tab);
    client.billing.recovered$.subscribe({
      next: (item) => this.recovered.push({ tab: index, event: this.event(), at: this.clock.now(), item }),
      complete: () => (tab.recoveredDone ??= this.event()),
    });
    if (this.platform.sync && this.platform.webLocks && nothingToReplay) tab.recoveredDone ??= openedEvent;
    return tab;
  }

  private locksFor(tab: number, later: boolean) {
    return this.platform.webLocks ? this.locks.forTab(tab, { later }) : null;
  }

  /** A new page's storage: the shared one, or a fresh one of its own. */
  newStorage(): MemoryStorage {
    return this.platform.shared ? this.sharedStorage : new MemoryStorage();
  }

  /** Starts a call (`plain`: a getUsage without a signal); its outcome is recorded when it settles. */
  start(tab: Tab, kind: Call['kind'], externalId?: string, plain = false): Call {
    const controller = new AbortController();
    const billing = tab.client.billing;
    const { signal } = controller;
    // Dated before the call starts: a request it sends at once comes after it.
    const startEvent = this.event();
    const startAt = this.clock.now();
    const promise: Promise<unknown> =
      kind === 'consume'
        ? billing.consume({ externalId, signal })
        : kind === 'getUsage'
          ? billing.getUsage(plain ? undefined : { signal })
          : billing.refreshCredits();
    const call: Call = {
      index: this.calls.length,
      tab: tab.index,
      kind,
      externalId,
      controller,
      plain: plain || kind === 'refreshCredits',
      startEvent,
      startAt,
      ...(tab.storage.failWrites === null ? {} : { unjournaled: true }),
      settledPromise: promise.then(
        (value) => this.settled(call, { ok: true, value }),
        (error: BillingError) => this.settled(call, { ok: false, error }),
      ),
    };
    this.calls.push(call);
    return call;
  }

  private settled(call: Call, outcome: Outcome): void {
    call.settledEvent = this.event();
    call.settledAt = this.clock.now();
    call.outcome = outcome;
  }

  live(): Tab[] {
    return this.tabs.filter((t) => t.status === 'live');
  }

  /** A storage starts refusing writes (or works again); the consumes open on it may go unjournaled. */
  failWrites(storage: MemoryStorage, failing: Error | null): void {
    storage.failWrites = failing;
    if (failing === null) return;
    for (const call of this.calls) {
      if (call.outcome === undefined && this.tabs[call.tab]?.storage === storage) call.unjournaled = true;
    }
  }

  /** A page that goes away without a word: no more timers, answers or messages; its locks are freed. */
  kill(tab: Tab): void {
    tab.status = 'dead';
    this.ended(tab);
    tab.scheduler.kill();
    this.locks.kill(tab.index);
  }

  dispose(tab: Tab): void {
    tab.status = 'disposed';
    this.ended(tab);
    tab.client.billing.dispose();
  }

  private ended(tab: Tab): void {
    tab.endedEvent = this.event();
    tab.endedAt = this.clock.now();
  }

  /** A tab's main thread blocks (or runs again): its timers, answers and messages wait meanwhile. */
  setBusy(tab: Tab, busy: boolean): void {
    if (busy) this.slowAnswers = true;
    const last = tab.busy[tab.busy.length - 1];
    if (busy && (last === undefined || last[1] !== undefined)) tab.busy.push([this.clock.now(), undefined]);
    if (!busy && last !== undefined && last[1] === undefined) last[1] = this.clock.now();
    tab.scheduler.setBusy(busy);
  }

  /**
   * Creates `count` clients in one page, one after the other on one storage (the page's `sessionStorage`,
   * or the shared one) with every feature of the run, each subscribed, and disposes each: at once, after
   * the microtasks of its start, or after a turn of the event loop. Their locks are granted on a later
   * turn, as a browser's are, so a dispose may come before, between or after the grants. What they leave
   * behind is checked at rest.
   */
  async churn(count: number, offset: number): Promise<void> {
    const storage = this.newStorage();
    for (let i = 0; i < count; i++) {
      const tab = this.open(storage, true);
      tab.churned = true;
      tab.client.billing.usage$.subscribe().add(tab.client.billing.freePeriodRemaining$.subscribe());
      const when = (offset + i) % 3;
      if (when === 1) for (let m = 0; m < 5; m++) await Promise.resolve();
      if (when === 2) await turn();
      this.dispose(tab);
    }
    await this.settle();
  }

  /** Runs everything that is due now: promise chains, unheld traffic, channel deliveries. */
  async settle(): Promise<void> {
    // Lock grants due on a later turn (churned pages) keep it going too: up to a few turns per page.
    for (let round = 0; round < 1000; round++) {
      await turn();
      if ((await this.network.flush()) + this.hub.flush() + this.locks.granting > 0) continue;
      await turn();
      if ((await this.network.flush()) + this.hub.flush() + this.locks.granting === 0) return;
    }
    throw new Error('the world never settled (a message or request loop?)');
  }

  /** Moves virtual time by `ms`, stopping at every timer so that what it starts runs at its time. */
  async advance(ms: number): Promise<void> {
    const target = this.clock.now() + ms;
    for (let step = 0; step < 10_000; step++) {
      const next = this.clock.nextDue();
      if (next === undefined || next > target) break;
      this.clock.advanceBy(Math.max(0, next - this.clock.now()));
      await this.settle();
    }
    this.clock.advanceBy(target - this.clock.now());
    await this.settle();
  }

  /**
   * Lets the system come to rest: no holds, no busy tabs, no late messages,
   * every page that died reloaded once on its storage, and time enough for
   * every retry, timeout and lock cap to run out.
   */
  async quiesce(): Promise<void> {
    this.network.disarm();
    this.hub.late = false;
    for (const tab of this.live()) this.setBusy(tab, false);
    for (const tab of this.tabs) tab.storage.failWrites = null;
    const releaseAll = async () => {
      for (let i = 0; i < 50 && this.network.held().length > 0; i++) {
        this.network.held().forEach((e) => this.network.release(e));
        await this.settle();
      }
    };
    await releaseAll();
    const orphaned = new Set(this.tabs.filter((t) => t.status === 'dead').map((t) => t.storage));
    // A storage of its own is reloaded if no page lives on it; a shared one gets a new page if any page died.
    if (!this.platform.shared) for (const tab of this.live()) orphaned.delete(tab.storage);
    for (const storage of orphaned) this.open(storage);
    for (let i = 0; i < 12; i++) {
      await releaseAll();
      await this.advance(30_000);
    }
  }
}
