import { REFERENCE_PATHS as P } from '../../lib/testing';
import type { Exchange } from './gated-network';
import type { Call, Tab, World } from './lifecycle-world';

// The client's defaults (`createClient` without timeoutMs or retries) and its backoff ceiling.
const TIMEOUT_MS = 10_000;
const RETRIES = 2;
const BACKOFF_CEILINGS = [250, 500];
const FREE_PERIOD_MS = 30_000;
/** One request, every attempt timed out, with the longest backoff between them. */
const ONE_REQUEST_MS = (RETRIES + 1) * TIMEOUT_MS + BACKOFF_CEILINGS.reduce((a, b) => a + b, 0);
/**
 * A read (`getUsage()`, `refreshCredits()`): the request it joins, or one queued after the request in
 * flight (a design that coalesces nudges into one follow-up fetch may make a caller wait for both).
 */
export const REQUEST_BOUND_MS = 2 * ONE_REQUEST_MS;
/**
 * A consume from its turn in its tab's queue: the cross-tab lock wait (which counts against `timeoutMs`,
 * issue 23.5), its POST, and the balance refresh after a credit charge or a refusal (a read's bound).
 */
export const CONSUME_BOUND_MS = TIMEOUT_MS + ONE_REQUEST_MS + REQUEST_BOUND_MS;

const inFlight = (e: Exchange) => e.stage === 'requested' || e.stage === 'answered';
const openAt = (c: Call, event: number) => c.startEvent < event && (c.settledEvent ?? Infinity) > event;

/** A call rejected `aborted` that nobody aborted (it joined a request another caller abandoned). */
function spuriousAborts(world: World): string[] {
  return world.calls
    .filter((c) => c.outcome?.ok === false && c.outcome.error.code === 'aborted' && !c.controller.signal.aborted)
    .map(
      (c) =>
        `spurious abort: tab ${c.tab} ${c.kind}()${c.plain ? ' without a signal' : ''} (call ${c.index}) rejected 'aborted', nobody aborted it`,
    );
}

/**
 * When a consume's turn came: after the earlier consumes of its tab and the replays the tab reported
 * (consumes run one at a time); undefined while one of those is still open, or replays are still going.
 */
function turnOf(world: World, call: Call, tab: Tab): number | undefined {
  if (call.kind !== 'consume') return call.startAt;
  if (tab.recoveredDone === undefined) return undefined;
  let turn = call.startAt;
  for (const other of world.calls) {
    if (other.index >= call.index || other.tab !== call.tab || other.kind !== 'consume') continue;
    if (other.settledAt === undefined) return undefined;
    turn = Math.max(turn, other.settledAt);
  }
  for (const r of world.recovered) if (r.tab === call.tab) turn = Math.max(turn, r.at);
  return turn;
}

/**
 * Every call settles within its bound: at once when its signal aborts or its client is disposed, and
 * otherwise within its timeouts, retries and backoff on virtual time (a consume from its turn, the lock
 * wait included). Time its own tab spent busy (timers wait) does not count.
 */
function unsettled(world: World): string[] {
  const out: string[] = [];
  const now = world.clock.now();
  for (const call of world.calls) {
    if (call.outcome !== undefined) continue;
    const tab = world.tabs[call.tab] as Tab;
    const what = `tab ${call.tab} ${call.kind}(${call.externalId ?? ''}) (call ${call.index})`;
    if (tab.status === 'dead') continue;
    if (tab.status === 'disposed') {
      out.push(`unsettled: ${what} still open after dispose()`);
      continue;
    }
    if (call.controller.signal.aborted) {
      out.push(`unsettled: ${what} still open after its signal aborted`);
      continue;
    }
    const turn = turnOf(world, call, tab);
    if (turn === undefined || tab.busy.some(([, to]) => to === undefined || to > turn)) continue;
    const bound = call.kind === 'consume' ? CONSUME_BOUND_MS : REQUEST_BOUND_MS;
    if (now - turn > bound) out.push(`unsettled: ${what} open ${now - turn} ms since its turn, bound ${bound} ms`);
  }
  return out;
}

/**
 * No request without a live caller: a disposed client has nothing on the wire, and without tab sync
 * (whose nudges fetch usage of their own) every GET on the wire has an open call of its tab it may serve
 * (or, for a balance GET, a replay of its start still going).
 */
function orphanRequests(world: World): string[] {
  const out: string[] = [];
  for (const e of world.network.exchanges) {
    const tab = world.tabs[e.tab] as Tab;
    if (!inFlight(e) || tab.status === 'dead') continue;
    const what = `tab ${e.tab} ${e.method} ${e.path.split('/').slice(-2).join('/')} (#${e.index})`;
    if (tab.status === 'disposed') {
      out.push(`orphan request: ${what} still on the wire after dispose()`);
      continue;
    }
    // A replay of what an earlier page left refreshes the balance after its answer, for no call of ours.
    const replaying = tab.recoveredDone === undefined && e.path === P.balance;
    if (world.platform.sync || e.path === P.consume || replaying) continue;
    const owners = world.calls.filter(
      (c) => c.tab === e.tab && c.outcome === undefined && (c.kind === 'getUsage' || e.path === P.balance),
    );
    if (owners.length === 0) out.push(`orphan request: ${what} on the wire with no open call of its tab`);
  }
  return out;
}

/** A disposed client closed its channel. */
function openChannels(world: World): string[] {
  return world.tabs
    .filter((t) => t.status === 'disposed')
    .flatMap((t) => world.hub.openOf(t.index).map((name) => `leak: disposed tab ${t.index} left channel ${name} open`));
}

/** A POST sent on behalf of a consume the user made (not a replay of what an earlier page left). */
function userPost(world: World, e: Exchange): boolean {
  if (world.recovered.some((r) => r.tab === e.tab && r.item.externalId === e.externalId)) return false;
  return world.calls.some(
    (c) => c.tab === e.tab && c.kind === 'consume' && c.externalId === e.externalId && openAt(c, e.sentEvent),
  );
}

/**
 * One charge for clicks in every tab at once, where Web Locks exist: with tab sync, a consume whose POST
 * went out while another tab's (or its own) free period ran, on its holder's clock, is a second charge.
 * The period runs from the charge answer's arrival for 30 s, held as a lock by the page that got it;
 * periods of pages that died or were disposed since, and spans the wall clock stepped in (issue 23.7),
 * are left out. The POST is dated by the first one of its id from its tab (a retry repeats a decision).
 */
function secondCharges(world: World): string[] {
  if (!world.platform.sync || !world.platform.webLocks) return [];
  // A tab learns a period one way, its owner's `period` message (issue 30): without a channel each tab bills
  // on its own, the documented fallback (docs/recipes/cross-tab.md), as a held period lock alone cannot say
  // whether its owner is frozen past its 30 s. Likewise an owner that does not answer the holder's `ask`
  // within 500 ms (a late channel, a busy tab) cannot be told from a frozen one: the holder charges.
  const noChannel = (world.platform.channel ?? 'ok') !== 'ok';
  if (noChannel || world.slowAnswers) return [];
  const periods = world.network.exchanges.filter(
    (e) => e.path === P.consume && e.stage === 'delivered' && e.answer?.body.code === 0,
  );
  const out: string[] = [];
  for (const [id, charge] of world.firstCharge) {
    if (!userPost(world, charge)) continue;
    const first = world.network.exchanges.find(
      (e) => e.tab === charge.tab && e.path === P.consume && e.externalId === id,
    ) as Exchange;
    const sent = { event: first.sentEvent, at: first.sentAt };
    const inside = periods.find((p) => {
      const holder = world.tabs[p.tab] as Tab;
      const from = p.deliveredAt as number;
      return (
        (p.deliveredEvent as number) < sent.event &&
        sent.at < from + FREE_PERIOD_MS &&
        (holder.endedEvent ?? Infinity) > sent.event &&
        !world.wallSteps.some((s) => s.at >= from && s.at <= sent.at)
      );
    });
    if (inside !== undefined) {
      out.push(
        `second charge: tab ${charge.tab} charged ${id} (POST sent at ${sent.at}) inside the free period tab ${inside.tab} started at ${inside.deliveredAt as number} (${inside.externalId as string})`,
      );
    }
  }
  return out;
}

/**
 * Issue 23.6: a tab that died holding the consume lock, its POST out and its answer never heard, left an
 * orphan (its `sending` told, its page lock gone with it). A tab that heard it (open before that POST went
 * out) sends it again under the lock before deciding, so a POST of its own sent after the death, before any
 * tab sent the orphan's id again, is the second charge this design removed. Left out: what the recipe
 * leaves open (no channel, no Web Locks) and runs where a message may come late (a busy tab, a late
 * channel): the re-send is then only as good as the channel's timing.
 */
function unsentOrphans(world: World): string[] {
  const channel = (world.platform.channel ?? 'ok') === 'ok';
  if (!world.platform.sync || !world.platform.webLocks || !channel || world.slowAnswers) return [];
  const consumes = world.network.exchanges.filter((e) => e.path === P.consume && e.externalId !== undefined);
  const out: string[] = [];
  for (const dead of world.tabs.filter((t) => t.status === 'dead')) {
    const orphans = world.calls.filter(
      (c) =>
        c.tab === dead.index &&
        c.kind === 'consume' &&
        c.outcome === undefined &&
        consumes.some((e) => e.tab === dead.index && e.externalId === c.externalId) &&
        !consumes.some((e) => e.tab === dead.index && e.externalId === c.externalId && e.stage === 'delivered'),
    );
    for (const orphan of orphans) {
      const id = orphan.externalId as string;
      const announced = consumes.find((e) => e.tab === dead.index && e.externalId === id) as Exchange;
      for (const post of consumes) {
        const tab = world.tabs[post.tab] as Tab;
        if (post.tab === dead.index || post.externalId === id || tab.openedEvent > announced.sentEvent) continue;
        if (post.sentEvent < (dead.endedEvent as number) || !userPost(world, post)) continue;
        const resent = consumes.some(
          (e) => e.externalId === id && e.tab !== dead.index && e.sentEvent < post.sentEvent,
        );
        if (!resent) {
          out.push(
            `orphan not sent again: tab ${post.tab} sent ${post.externalId as string} after tab ${dead.index} died with ${id} unanswered, before any tab sent ${id} again`,
          );
        }
      }
    }
  }
  return out;
}

/** The edges of a call's and a client's life, after every command (issue 23.8). */
export function edgeStepViolations(world: World): string[] {
  return [
    ...spuriousAborts(world),
    ...unsettled(world),
    ...orphanRequests(world),
    ...openChannels(world),
    ...secondCharges(world),
    ...unsentOrphans(world),
  ];
}

/** Once at rest: no Web Lock held or asked for by a disposed client. */
export function edgeRestViolations(world: World): string[] {
  return world.tabs
    .filter((t) => t.status === 'disposed')
    .flatMap((t) => {
      const { held, pending } = world.locks.ownedBy(t.index);
      return [
        ...held.map((name) => `leak: disposed tab ${t.index} holds lock ${name}`),
        ...pending.map((name) => `leak: disposed tab ${t.index} still asks for lock ${name}`),
      ];
    });
}
