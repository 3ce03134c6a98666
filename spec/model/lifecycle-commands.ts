import fc from 'fast-check';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import { MemoryStorage, quotaError } from '../helpers/memory-storage';
import { FAMILIES, familyOn, type Family } from './families';
import { lifecycleStats, stepViolations, trace } from './lifecycle-invariants';
import { TOKEN, type Tab, type World } from './lifecycle-world';

/** What the generator needs to know: nothing, every command picks among what exists when it runs. */
export type LifecycleModel = Record<string, never>;
type Command = fc.AsyncCommand<LifecycleModel, World>;

const pick = <T>(list: readonly T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

/** Whether a duplicated tab was opened on a copy of this tab's storage. */
const copied = (world: World, tab: number) => world.tabs.some((o) => o.copiedFrom === tab);

/** Every command: do it, let what is due run, then check every invariant. */
abstract class Step implements Command {
  check = () => true;
  abstract act(world: World): void | Promise<void>;
  async run(_model: LifecycleModel, world: World): Promise<void> {
    lifecycleStats.commands += 1;
    await this.act(world);
    await world.settle();
    const violations = stepViolations(world);
    if (violations.length > 0)
      throw new Error(`after ${this.toString()}:\n  ${violations.join('\n  ')}${trace(world)}`);
  }
  abstract toString(): string;
}

class Consume extends Step {
  constructor(
    readonly tab: number,
    readonly id: 'a' | 'b' | 'fresh',
  ) {
    super();
  }
  act(world: World) {
    const tab = pick(world.live(), this.tab);
    if (tab !== undefined) world.start(tab, 'consume', this.id === 'fresh' ? world.freshId() : this.id);
  }
  toString = () => `tab[${this.tab}].consume(${this.id})`;
}

class Read extends Step {
  constructor(
    readonly tab: number,
    readonly kind: 'getUsage' | 'refreshCredits',
  ) {
    super();
  }
  act(world: World) {
    const tab = pick(world.live(), this.tab);
    if (tab !== undefined) world.start(tab, this.kind);
  }
  toString = () => `tab[${this.tab}].${this.kind}()`;
}

/** Aborts a call still waiting, whatever stage it is at (queued, sent, answered with a refresh pending). */
class Abort extends Step {
  constructor(readonly call: number) {
    super();
  }
  act(world: World) {
    // Parked (abandonCopied), a consume of a tab that was duplicated is not aborted.
    const open = world.calls.filter(
      (c) =>
        c.outcome === undefined &&
        !c.plain &&
        world.tabs[c.tab]?.status === 'live' &&
        (c.kind !== 'consume' || familyOn('abandonCopied') || !copied(world, c.tab)),
    );
    pick(open, this.call)?.controller.abort();
  }
  toString = () => `abort(open call ${this.call})`;
}

class Hold extends Step {
  constructor(
    readonly path: string,
    readonly stage: 'request' | 'answer',
  ) {
    super();
  }
  act(world: World) {
    world.network.holdNext(this.path, this.stage);
  }
  toString = () => `holdNext(${this.path.split('/').slice(-2).join('/')}, ${this.stage})`;
}

class Release extends Step {
  constructor(readonly held: number) {
    super();
  }
  act(world: World) {
    const exchange = pick(world.network.held(), this.held);
    if (exchange !== undefined) world.network.release(exchange);
  }
  toString = () => `release(held ${this.held})`;
}

class Advance extends Step {
  constructor(readonly ms: number) {
    super();
  }
  act(world: World) {
    if (familyOn('timeouts')) return world.advance(this.ms);
    // Without the timeouts family, time stops short of the attempt timeout of any held exchange.
    const oldest = Math.min(...world.network.held().map((e) => e.sentAt));
    const limit = oldest + TIMEOUT_MS - 1 - world.clock.now();
    return world.advance(Math.max(0, Math.min(this.ms, limit)));
  }
  toString = () => `advance(${this.ms})`;
}

class TopUp extends Step {
  constructor(readonly amount: number) {
    super();
  }
  act(world: World) {
    const balance = world.state.snapshot(TOKEN).creditsBalance;
    world.state.setUser(TOKEN, { creditsBalance: balance + this.amount });
    world.bump();
  }
  toString = () => `backend.topUp(${this.amount})`;
}

class Dispose extends Step {
  constructor(readonly tab: number) {
    super();
  }
  act(world: World) {
    // Parked families: a client still replaying what an earlier page left is not disposed, nor a
    // duplicated tab or its opener (a copy's storage must keep a client that hears the opener finish).
    const replayDone = (t: Tab) => familyOn('disposeReplaying') || t.recoveredDone !== undefined;
    const uncopied = (t: Tab) => familyOn('abandonCopied') || (!copied(world, t.index) && t.copiedFrom === undefined);
    const tab = pick(
      world.live().filter((t) => replayDone(t) && uncopied(t)),
      this.tab,
    );
    if (tab !== undefined) world.dispose(tab);
  }
  toString = () => `tab[${this.tab}].dispose()`;
}

const MAX_LIVE = 3;
/** The client's default attempt timeout. */
const TIMEOUT_MS = 10_000;

/** A new client on the storage of a disposed or dead page that has no client now (the app starts again). */
class Restart extends Step {
  constructor(readonly which: number) {
    super();
  }
  act(world: World) {
    const idle = [...new Set(world.tabs.filter((t) => t.churned !== true).map((t) => t.storage))].filter(
      (s) => !world.live().some((t) => t.storage === s),
    );
    const storage = pick(idle, this.which);
    if (storage !== undefined && world.live().length < MAX_LIVE) world.open(storage);
  }
  toString = () => `restart(idle storage ${this.which})`;
}

/** The page dies without dispose (a reload, a crash) and a new client starts on its storage. */
class Reload extends Step {
  constructor(readonly tab: number) {
    super();
  }
  act(world: World) {
    const tab = pick(world.live(), this.tab);
    if (tab === undefined) return;
    world.kill(tab);
    world.open(tab.storage);
  }
  toString = () => `tab[${this.tab}].reload()`;
}

/**
 * The page dies without dispose and nothing starts on its storage now (a closed tab, a crash): a later
 * `restart` opens one there, after what other tabs did meanwhile (their re-send of its POST included).
 */
class Crash extends Step {
  constructor(readonly tab: number) {
    super();
  }
  act(world: World) {
    const tab = pick(world.live(), this.tab);
    if (tab !== undefined) world.kill(tab);
  }
  toString = () => `tab[${this.tab}].crash()`;
}

/** `window.open` or "Duplicate tab": a new tab on a copy of another's storage, while that one lives. */
class CopyTab extends Step {
  constructor(readonly tab: number) {
    super();
  }
  act(world: World) {
    const tab: Tab | undefined = pick(world.live(), this.tab);
    if (tab === undefined || world.live().length >= MAX_LIVE) return;
    // In a shared storage (localStorage) a new tab simply opens on it; a tab's own storage is copied.
    if (world.platform.shared) {
      world.open(world.sharedStorage).copiedFrom = tab.index;
      return;
    }
    const copy = new MemoryStorage();
    tab.storage.items.forEach((value, key) => copy.items.set(key, value));
    world.open(copy).copiedFrom = tab.index;
  }
  toString = () => `tab[${this.tab}].duplicate()`;
}

/** The user clicks in every tab at once: a consume with a fresh id in each, before anything settles. */
class ClickEverywhere extends Step {
  act(world: World) {
    for (const tab of world.live()) world.start(tab, 'consume', world.freshId());
  }
  toString = () => 'clickEverywhere()';
}

class OpenTab extends Step {
  act(world: World) {
    if (world.live().length < MAX_LIVE) world.open(world.newStorage());
  }
  toString = () => 'openTab()';
}

class Busy extends Step {
  constructor(
    readonly tab: number,
    readonly busy: boolean,
  ) {
    super();
  }
  act(world: World) {
    const tab = pick(world.live(), this.tab);
    if (tab !== undefined) world.setBusy(tab, this.busy);
  }
  toString = () => `tab[${this.tab}].${this.busy ? 'busy' : 'free'}()`;
}

class ChannelLate extends Step {
  constructor(readonly late: boolean) {
    super();
  }
  act(world: World) {
    world.hub.late = this.late;
    if (this.late) world.slowAnswers = true;
  }
  toString = () => `channel.${this.late ? 'late' : 'onTime'}()`;
}

class Deliver extends Step {
  constructor(readonly n: number) {
    super();
  }
  act(world: World) {
    world.hub.deliver(this.n);
  }
  toString = () => `channel.deliver(${this.n})`;
}

/** The wall clock steps (an OS correction, NTP, a user setting the time) while the monotonic clock runs on. */
class StepClock extends Step {
  constructor(readonly ms: number) {
    super();
  }
  act(world: World) {
    world.wallOffset += this.ms;
    world.wallSteps.push({ at: world.clock.now(), ms: this.ms });
  }
  toString = () => `wallClock.step(${this.ms})`;
}

/** A tab's storage starts refusing writes (a full quota), or works again. */
class StorageFails extends Step {
  constructor(
    readonly tab: number,
    readonly failing: boolean,
  ) {
    super();
  }
  act(world: World) {
    const tab = pick(world.live(), this.tab);
    if (tab !== undefined) world.failWrites(tab.storage, this.failing ? quotaError() : null);
  }
  toString = () => `tab[${this.tab}].storage.${this.failing ? 'failWrites' : 'works'}()`;
}

/**
 * A component starts `getUsage({ signal })` while the requests are on the wire, unmounts and aborts; once
 * its caller heard `aborted`, a plain `getUsage()` starts. It must not hear `aborted` (nobody aborted it):
 * the request the first caller abandoned is not joined. A tab with a getUsage already open is left alone
 * (its caller is not the sole one).
 */
class AbortSoleGetUsage extends Step {
  constructor(readonly tab: number) {
    super();
  }
  async act(world: World) {
    const tab = pick(world.live(), this.tab);
    const busy = (t: Tab) => world.calls.some((c) => c.tab === t.index && c.kind === 'getUsage' && !c.outcome);
    if (tab === undefined || busy(tab)) return;
    const first = world.start(tab, 'getUsage');
    first.controller.abort();
    await first.settledPromise;
    world.start(tab, 'getUsage', undefined, true);
  }
  toString = () => `tab[${this.tab}].abortSoleGetUsage()`;
}

/** React StrictMode, hot reload, user switches: 50 clients created and disposed in a row (`World.churn`). */
class Churn extends Step {
  constructor(readonly offset: number) {
    super();
  }
  async act(world: World) {
    // Once a run: what matters is the timing of each dispose, and 50 clients cost time.
    if (world.tabs.some((t) => t.churned === true)) return;
    const started = Date.now();
    await world.churn(CHURN, this.offset);
    lifecycleStats.churns += 1;
    lifecycleStats.churnMs += Date.now() - started;
  }
  toString = () => `churn(${CHURN}, timings from ${this.offset})`;
}
const CHURN = 50;

const tabIndex = fc.nat(5);
const paths = fc.constantFrom(P.freeTrialCount, P.balance, P.consume);

const ids = fc.constantFrom<'a' | 'b' | 'fresh'>('a', 'b', 'fresh', 'fresh');
const core = [
  fc.tuple(tabIndex, ids).map(([t, id]) => new Consume(t, id)),
  fc.tuple(tabIndex, ids).map(([t, id]) => new Consume(t, id)),
  fc
    .tuple(tabIndex, fc.constantFrom<'getUsage' | 'refreshCredits'>('getUsage', 'getUsage', 'refreshCredits'))
    .map(([t, k]) => new Read(t, k)),
  fc.constantFrom(1, 1_000, 9_999, 10_001, 29_999, 30_001).map((ms) => new Advance(ms)),
  fc.integer({ min: 1, max: 10 }).map((n) => new TopUp(n)),
];

const holds = fc.tuple(paths, fc.constantFrom<'request' | 'answer'>('request', 'answer'));
const families: Record<string, Array<fc.Arbitrary<Command>>> = {
  holds: [
    holds.map(([p, s]) => new Hold(p, s)),
    holds.map(([p, s]) => new Hold(p, s)),
    fc.nat(5).map((i) => new Release(i)),
    fc.nat(5).map((i) => new Release(i)),
  ],
  // Time advances always run; this family lets them reach a held exchange's timeout (so retries race).
  timeouts: [],
  aborts: [fc.nat(5).map((i) => new Abort(i))],
  dispose: [tabIndex.map((t) => new Dispose(t)), fc.nat(3).map((i) => new Restart(i))],
  // Steers Dispose (above) rather than adding commands.
  disposeReplaying: [],
  abandonCopied: [],
  reloads: [tabIndex.map((t) => new Reload(t)), tabIndex.map((t) => new Crash(t))],
  copies: [tabIndex.map((t) => new CopyTab(t))],
  clockSteps: [
    fc.constantFrom(-3_600_000, -60_000, -3_000, -1, 1, 3_000, 60_000, 3_600_000).map((ms) => new StepClock(ms)),
  ],
  storageFaults: [fc.tuple(tabIndex, fc.boolean()).map(([t, f]) => new StorageFails(t, f))],
  abortSole: [tabIndex.map((t) => new AbortSoleGetUsage(t))],
  // 50 clients cost about as much as the rest of a run: drawn in a quarter of this slot, an advance otherwise.
  churn: [
    fc.oneof(
      { weight: 1, arbitrary: fc.nat(2).map((o): Command => new Churn(o)) },
      { weight: 3, arbitrary: fc.constantFrom(1_000, 30_001).map((ms): Command => new Advance(ms)) },
    ),
  ],
};

/** The commands of one client's life and its successors on the same storage. */
const isLifecycle = (f: Family): boolean => f in families;

const lifecycle = (skip: readonly Family[] = []): Array<fc.Arbitrary<Command>> => [
  ...core,
  ...FAMILIES.filter(isLifecycle)
    .filter((f) => familyOn(f) && !skip.includes(f))
    .flatMap((f) => families[f] ?? []),
];

/** Tabs on top: new tabs, busy tabs, late channel deliveries. */
const tabs = (): Array<fc.Arbitrary<Command>> => [
  // Held answers arrive late, like a busy tab's: parked with it (tabHolds).
  ...lifecycle(familyOn('tabHolds') ? [] : ['holds']),
  fc.constant(new OpenTab()),
  fc.constant(new OpenTab()),
  fc.constant(new ClickEverywhere()),
  ...(familyOn('busyTabs') ? [fc.tuple(tabIndex, fc.boolean()).map(([t, b]) => new Busy(t, b))] : []),
  ...(familyOn('lateChannel')
    ? [fc.boolean().map((late) => new ChannelLate(late)), fc.integer({ min: 1, max: 4 }).map((n) => new Deliver(n))]
    : []),
];

// A shrunk command list replays only with the replayPath fast-check prints after it (/*replayPath="..."*/).
const replay = process.env['MODEL_REPLAY'];
const settings = (maxCommands: number) => ({
  maxCommands,
  size: 'max' as const,
  ...(replay === undefined ? {} : { replayPath: replay }),
});

export const lifecycleCommands = () => fc.commands(lifecycle(), settings(30));
export const tabCommands = () => fc.commands(tabs(), settings(40));
