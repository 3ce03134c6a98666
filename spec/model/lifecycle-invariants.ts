import type { BillingError } from '../../lib/shared/errors';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import type { BillingConsumeResult } from '../../lib/shared/types';
import type { Exchange } from './gated-network';
import { edgeRestViolations, edgeStepViolations } from './lifecycle-edges';
import type { Call, Tab, World } from './lifecycle-world';

export const FREE_PERIOD_MS = 30_000;

/** How many invariant checks ran, for the figures. */
export const lifecycleStats = { commands: 0, checks: 0, churns: 0, churnMs: 0 };

const charged = (result: unknown) => (result as BillingConsumeResult).isBlacklisted === false;

function codeOf(e: Exchange): number | undefined {
  return e.stage === 'delivered' ? e.answer?.body.code : undefined;
}

/** The POSTs of `id` this tab sent, and the answers it got, while a call was open (events in between). */
function within(world: World, tab: number, id: string, from: number, to: number): Exchange[] {
  return world.network.exchanges.filter(
    (e) => e.tab === tab && e.path === P.consume && e.externalId === id && e.sentEvent > from && e.sentEvent < to,
  );
}

function chargeAnswerDelivered(world: World, tab: number, id: string, from: number, to: number): boolean {
  return world.network.exchanges.some(
    (e) =>
      e.tab === tab &&
      e.path === P.consume &&
      e.externalId === id &&
      codeOf(e) === 0 &&
      e.sentEvent > from &&
      (e.deliveredEvent as number) < to,
  );
}

/**
 * From when a POST of `call`'s id by its tab is certainly its own: a tab runs
 * its consumes one at a time in call order, after the replays of its start,
 * so once the earlier calls with that id and those replays are over.
 */
function ownFrom(world: World, call: Call): number {
  const tab = world.tabs[call.tab] as Tab;
  const replayed = world.recovered.find((r) => r.tab === call.tab && r.item.externalId === call.externalId);
  let from = Math.max(call.startEvent, replayed?.event ?? tab.recoveredDone ?? Number.POSITIVE_INFINITY);
  for (const other of world.calls) {
    if (other.index < call.index && other.tab === call.tab && other.externalId === call.externalId) {
      from = Math.max(from, other.settledEvent ?? Number.POSITIVE_INFINITY);
    }
  }
  return from;
}

/** Each reported charge, and each failure heard after the charge answer arrived. */
function reportViolations(world: World): string[] {
  const out: string[] = [];
  const backend = new Set(world.state.charges().map((c) => c.externalId));
  for (const call of world.calls) {
    const { outcome, externalId: id } = call;
    if (call.kind !== 'consume' || outcome === undefined || id === undefined) continue;
    const end = call.settledEvent as number;
    if (outcome.ok && charged(outcome.value) && within(world, call.tab, id, ownFrom(world, call), end).length > 0) {
      if (!backend.has(id)) out.push(`phantom: tab ${call.tab} consume(${id}) reported charged, backend has no charge`);
    }
    if (!outcome.ok && chargeAnswerDelivered(world, call.tab, id, ownFrom(world, call), end)) {
      out.push(
        `paid but failed: tab ${call.tab} consume(${id}) rejected '${outcome.error.code}' after its charge answer arrived`,
      );
    }
  }
  for (const { tab, event, item } of world.recovered) {
    const { externalId: id, outcome } = item;
    if (outcome.ok && charged(outcome.result) && !backend.has(id)) {
      out.push(`phantom: recovered$ of tab ${tab} reported ${id} charged, backend has no charge`);
    }
    if (!outcome.ok && chargeAnswerDelivered(world, tab, id, 0, event)) {
      out.push(
        `paid but failed: recovered$ of tab ${tab} reported ${id} '${outcome.error.code}' after its charge answer arrived`,
      );
    }
  }
  return out;
}

/**
 * Contract decision 13, counted per id across pages: an outcome reported on `recovered$` is not reported
 * again by any page while a page that reported it lives (it can tell: it holds its mark). Only where every
 * page that knew is gone may a later report repeat it, with the same externalId.
 */
function reportedTwice(world: World): string[] {
  const out: string[] = [];
  world.recovered.forEach(({ tab, event, item }, i) => {
    const earlier = world.recovered.slice(0, i).filter((r) => r.item.externalId === item.externalId);
    const knower = earlier.find((r) => (world.tabs[r.tab]?.endedEvent ?? Number.POSITIVE_INFINITY) > event);
    if (knower !== undefined) {
      out.push(
        `reported twice: ${item.externalId} on recovered$ of tab ${tab}, already reported by live tab ${knower.tab}`,
      );
    }
  });
  return out;
}

function doubleCharges(world: World): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { externalId } of world.state.charges()) {
    if (seen.has(externalId)) out.push(`double charge: ${externalId} charged twice`);
    seen.add(externalId);
  }
  return out;
}

/**
 * Whether a GET answer certainly went into the cache. A free count comes only
 * from getUsage's GET pair, applied when the pair completes; a balance answer
 * is applied on arrival unless it is the half of a pair that failed. So an
 * answer counts when every getUsage call of its tab that was open across it
 * resolved (and, for a free count, there was one).
 */
function certainlyApplied(world: World, e: Exchange): boolean {
  const spanning = world.calls.filter(
    (c) =>
      c.tab === e.tab &&
      c.kind === 'getUsage' &&
      c.startEvent < e.sentEvent &&
      (c.settledEvent === undefined || c.settledEvent > (e.deliveredEvent as number)),
  );
  if (e.path === P.freeTrialCount && spanning.length === 0) return false;
  // A tab also fetches usage on its own (another tab's nudge): a balance answer that may be the half of
  // such a pair is applied only with its free count, so it counts only if every free-count request of
  // its tab in flight across it was answered, and answered well.
  // And a fetch of its own is never joined by a call (a nudge starts a fresh one): a free-count answer
  // likewise counts only if every balance request of its tab in flight across it was answered well.
  const other = e.path === P.balance ? P.freeTrialCount : P.balance;
  const pairOpen = world.network.exchanges.some(
    (c) =>
      c.tab === e.tab &&
      c.path === other &&
      c.sentEvent < (e.deliveredEvent as number) &&
      (c.deliveredEvent === undefined || c.deliveredEvent > e.sentEvent) &&
      !(c.stage === 'delivered' && codeOf(c) === 0),
  );
  if (pairOpen) return false;
  return spanning.every((c) => c.outcome?.ok === true);
}

/** Answers that reached `tab` and that its client applied. */
function appliedAnswers(world: World, tab: number) {
  const free: Exchange[] = [];
  const balance: Exchange[] = [];
  const credit: Exchange[] = [];
  // Answers that may have gone in too: a later-sent one among them may rightly win.
  const maybe: Exchange[] = [];
  for (const e of world.network.exchanges) {
    if (e.tab !== tab || e.stage !== 'delivered') continue;
    const code = codeOf(e);
    if (e.path === P.consume) {
      if (code === 0 || code === 20101) free.push(e);
      if (code === 0 && (e.answer?.body.data as { is_credit?: boolean } | null)?.is_credit === true) credit.push(e);
      continue;
    }
    if (code !== 0) continue;
    maybe.push(e);
    if (!certainlyApplied(world, e)) continue;
    if (e.path === P.freeTrialCount) free.push(e);
    else if (e.path === P.balance) balance.push(e);
  }
  return { free, balance, credit, maybe };
}

const newestSent = (list: readonly Exchange[]) =>
  list.reduce<Exchange | undefined>(
    (best, e) => (best === undefined || e.sentEvent > best.sentEvent ? e : best),
    undefined,
  );

/**
 * The cache is never older than the newest answer it applied. "Newest" is by
 * send order (what a client can know: an answer to a later request wins); an
 * answer is dated by the backend version it reports (a replayed consume
 * reports its first answer). The cache must show a value the backend had at
 * that version or later; the balance may also be lowered by the price of up
 * to two charges (the client's estimate until its refresh arrives), and is
 * not checked while the newest balance news is a credit charge still being
 * refreshed.
 */
function staleCache(world: World, tab: Tab): string[] {
  const usage = tab.client.billing.getCachedUsage();
  const { free, balance, credit, maybe } = appliedAnswers(world, tab.index);
  const out: string[] = [];
  const versions = world.versions;
  const dated = (e: Exchange) =>
    e.path === P.consume && codeOf(e) === 0
      ? (world.chargedAt.get(e.externalId as string) as number)
      : (e.appliedVersion as number);
  // Tabs share no quota (each fetches its own after a nudge): only this tab's own answers reach its cache.
  const shared: Exchange[] = [];
  const later = (news: Exchange, path: string) =>
    [...maybe, ...shared].filter(
      (e) => (e.path === path || (path === P.freeTrialCount && e.path === P.consume)) && e.sentEvent > news.sentEvent,
    );
  const freeNews = newestSent(free);
  if (freeNews !== undefined) {
    const allowed = new Set(versions.slice(dated(freeNews)).map((v) => v.free));
    later(freeNews, P.freeTrialCount).forEach((e) => allowed.add((versions[dated(e)] as { free: number }).free));
    // A reused id is answered with its first answer, old by design, and a tab may share it: allowed once it arrived.
    world.network.exchanges
      .filter((e) => e.path === P.consume && codeOf(e) === 0 && (e.appliedVersion as number) > dated(e))
      .filter((e) => (e.deliveredEvent as number) > freeNews.sentEvent)
      .forEach((e) => allowed.add((versions[dated(e)] as { free: number }).free));
    if (usage === null) {
      if (freeNews.path !== P.consume)
        out.push(`stale cache: tab ${tab.index} shows no quota after a usage answer arrived`);
    } else if (!allowed.has(usage.freeRemaining)) {
      out.push(
        `stale cache: tab ${tab.index} freeRemaining ${usage.freeRemaining}, newest answer (${freeNews.method} ${freeNews.path}, sent at event ${freeNews.sentEvent}) is of version ${dated(freeNews)}, allowed ${[...allowed].join('/')}`,
      );
    }
  }
  const balanceNews = newestSent(balance);
  const creditNews = newestSent(credit);
  if (
    balanceNews !== undefined &&
    usage !== null &&
    (creditNews === undefined || creditNews.sentEvent < balanceNews.sentEvent)
  ) {
    const price = world.initial.price;
    const allowed = new Set<number>();
    const lowered = (value: number) => [0, 1, 2].forEach((j) => allowed.add(Math.max(0, value - j * price)));
    versions.slice(balanceNews.appliedVersion).forEach((v) => lowered(v.balance));
    later(balanceNews, P.balance).forEach((e) => lowered((versions[dated(e)] as { balance: number }).balance));
    if (!allowed.has(usage.creditsBalance)) {
      out.push(
        `stale cache: tab ${tab.index} creditsBalance ${usage.creditsBalance}, newest balance answer (sent at event ${balanceNews.sentEvent}) is of version ${balanceNews.appliedVersion as number}, allowed ${[...allowed].join('/')}`,
      );
    }
  }
  return out;
}

/**
 * No tab is free beyond 30 s after the newest charge answer reached any tab, plus the backward steps of the
 * wall clock since then: the only overrun the design allows (a period restored after a reload, or adopted from
 * a message that arrived late, across a step no live page could see).
 */
function freeTooLong(world: World, tab: Tab): string[] {
  if (tab.client.billing.check().reason !== 'free_period') return [];
  const answers = world.network.exchanges.filter((e) => e.path === P.consume && codeOf(e) === 0);
  const now = world.clock.now();
  // Only the wall clock survives a reload: a page that restores a period cannot see a backward step made
  // after the period's page last looked (docs/recipes/reload-safe.md), so the period may run over by it.
  const unseenSince = (at: number) =>
    world.wallSteps.filter((s) => s.ms < 0 && s.at >= at).reduce((sum, s) => sum - s.ms, 0);
  const justified = answers.some(
    (e) => now < (e.deliveredAt as number) + FREE_PERIOD_MS + unseenSince(e.deliveredAt as number),
  );
  if (justified) return [];
  const newest = Math.max(Number.NEGATIVE_INFINITY, ...answers.map((e) => e.deliveredAt as number));
  const since = Number.isFinite(newest)
    ? `${now - newest} ms after the newest charge answer`
    : 'with no charge answer at all';
  return [`free too long: tab ${tab.index} is in a free period ${since}`];
}

/** Every invariant that must hold after any command. */
export function stepViolations(world: World): string[] {
  lifecycleStats.checks += 1;
  const out = [...world.violations, ...doubleCharges(world), ...reportViolations(world), ...reportedTwice(world)];
  for (const tab of world.live()) out.push(...staleCache(world, tab), ...freeTooLong(world, tab));
  return [...out, ...edgeStepViolations(world)];
}

function unknownOutcome(call: Call): boolean {
  const { outcome, externalId } = call;
  if (outcome === undefined || outcome.ok || externalId === undefined) return false;
  return (outcome.error as BillingError).externalId === externalId;
}

/**
 * Once at rest: every charge was told to someone (a caller, or `recovered$`
 * of a later client), or its caller heard a failure with its external_id
 * before any charge answer could reach it (the outcome was unknown, the id
 * lets the app ask again); and no call of a living tab is still waiting.
 */
export function restViolations(world: World): string[] {
  const out = [...stepViolations(world), ...edgeRestViolations(world)];
  for (const id of new Set(world.state.charges().map((c) => c.externalId))) {
    const told =
      world.calls.some(
        (c) =>
          c.externalId === id &&
          c.outcome !== undefined &&
          (c.outcome.ok ? charged(c.outcome.value) : unknownOutcome(c)),
      ) ||
      world.recovered.some(
        ({ item }) =>
          item.externalId === id &&
          (item.outcome.ok ? charged(item.outcome.result) : item.outcome.error.externalId === id),
      );
    // Without Web Locks nothing proves a page gone, so nothing is replayed: a consume whose page died
    // before its answer is a missed notification (never a charge after "failed"; docs/reliability.md).
    // Nor is one whose entry a full storage refused: a storage that fails removes what it held rather than
    // keep an entry older than the page's, so a missed notification is what a failing storage costs.
    const diedWaiting = world.calls.some(
      (c) =>
        c.externalId === id &&
        c.outcome === undefined &&
        world.tabs[c.tab]?.status === 'dead' &&
        (!world.platform.webLocks || c.unjournaled === true),
    );
    // A tab closed for good (a crash with no page started on its storage since) leaves its charge to another
    // tab's next consume under the lock, where its `sending` was heard (cross-tab rule 8 and its limits), else to
    // nobody: the rest check does not require it (a missed notification at worst, never a second charge).
    const closedForGood = world.calls.some((c) => {
      const tab = world.tabs[c.tab];
      const ended = tab?.endedEvent ?? Number.POSITIVE_INFINITY;
      return (
        c.externalId === id &&
        c.outcome === undefined &&
        tab?.status === 'dead' &&
        !world.tabs.some((t) => t.storage === tab.storage && t.openedEvent > ended)
      );
    });
    if (!told && !diedWaiting && !closedForGood) {
      out.push(`lost: ${id} was charged and no caller or recovered$ was ever told`);
    }
  }
  for (const call of world.calls) {
    const tab = world.tabs[call.tab] as Tab;
    if (call.outcome === undefined && tab.status !== 'dead') {
      out.push(`hang: tab ${call.tab} ${call.kind}(${call.externalId ?? ''}) never settled (tab ${tab.status})`);
    }
  }
  return out;
}

/** What happened, for a failure's message (`MODEL_TRACE=1`): every exchange and every call. */
export function trace(world: World): string {
  if (process.env['MODEL_TRACE'] !== '1') return '';
  const exchanges = world.network.exchanges.map(
    (e) =>
      `  #${e.index} tab ${e.tab} ${e.method} ${e.path}${e.externalId === undefined ? '' : ` ${e.externalId}`} sent@${e.sentEvent}/${e.sentAt} ${e.stage}` +
      `${e.appliedVersion === undefined ? '' : ` v${e.appliedVersion} code ${e.answer?.body.code}`}` +
      `${e.deliveredEvent === undefined ? '' : ` delivered@${e.deliveredEvent}/${e.deliveredAt}`}`,
  );
  const calls = world.calls.map(
    (c) =>
      `  call ${c.index} tab ${c.tab} ${c.kind}(${c.externalId ?? ''}) @${c.startEvent}..${c.settledEvent ?? 'open'} ` +
      `${c.outcome === undefined ? '' : c.outcome.ok ? JSON.stringify(c.outcome.value) : c.outcome.error.code}`,
  );
  const versions = world.versions.map((v, i) => `v${i} free ${v.free} balance ${v.balance}`).join('; ');
  return `\nversions: ${versions}\nexchanges:\n${exchanges.join('\n')}\ncalls:\n${calls.join('\n')}`;
}
