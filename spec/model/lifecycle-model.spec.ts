import fc from 'fast-check';
import { config } from 'rxjs';
import { allowConsole } from '../helpers/expect-console';
import { recordFigures } from '../helpers/figures';
import { ChannelHub, installFakeChannel } from '../helpers/fake-channel';
import type { QueryMode } from '../helpers/fake-locks';
import { ALLOW_PARTIAL, familiesLine, familyOn, partialRun } from './families';
import { lifecycleCommands, tabCommands, type LifecycleModel } from './lifecycle-commands';
import { lifecycleStats, restViolations, trace } from './lifecycle-invariants';
import { World, type InitialQuota, type Platform } from './lifecycle-world';

// Runs drawn with a throwing BroadcastChannel warn once per client that lost it (lib/features/sync/channel.ts).
allowConsole('warn', 'tabSync() goes on without a BroadcastChannel');

// `npm test` keeps these small; `.ci/run` sets MODEL_RUNS=1000 (the tab part follows unless MODEL_TAB_RUNS says otherwise).
const RUNS = Number(process.env['MODEL_RUNS'] ?? 25);
const TAB_RUNS = Number(process.env['MODEL_TAB_RUNS'] ?? RUNS);
// Replay a failure with the seed and path fast-check prints: MODEL_SEED=<seed> MODEL_PATH=<path> and -t to pick the test.
const SEED = Number(process.env['MODEL_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const PATH = process.env['MODEL_PATH'];

const initialQuota = fc.record({
  free: fc.nat(2),
  price: fc.integer({ min: 1, max: 5 }),
  balance: fc.nat(12),
});

let world: World | null = null;
let restore = () => undefined as void;
const figures: Record<string, number | string> = { seed: SEED };

let warnings = 0;
// Errors RxJS found no handler for (an effect that threw): reported, on a timer, as violations of the run.
const unhandled: string[] = [];
const previousOnUnhandledError = config.onUnhandledError;
beforeAll(() => {
  config.onUnhandledError = (error: unknown) => {
    const { name, message } = error as Error;
    unhandled.push(`unhandled RxJS error: ${name}: ${message}`);
  };
  // Node's own BroadcastChannel delivers on its own time; the model decides here.
  restore = installFakeChannel(() => world?.hub ?? new ChannelHub());
  // A storage that refuses writes warns once per client: counted for the figures, not printed.
  jest.spyOn(console, 'warn').mockImplementation(() => void (warnings += 1));
});

afterAll(() => {
  config.onUnhandledError = previousOnUnhandledError;
  restore();
  jest.restoreAllMocks();
  recordFigures('lifecycle-model', {
    ...figures,
    commands: lifecycleStats.commands,
    checks: lifecycleStats.checks,
    churns: lifecycleStats.churns,
    churnMs: lifecycleStats.churnMs,
    storageWarnings: warnings,
  });
});

async function runOnce(
  platform: Platform,
  initial: InitialQuota,
  commands: Iterable<fc.AsyncCommand<LifecycleModel, World>>,
) {
  const current = new World(initial, platform);
  world = current;
  let passed = false;
  try {
    current.open(current.newStorage());
    await current.settle();
    await fc.asyncModelRun(() => ({ model: {}, real: current }), commands);
    await current.quiesce();
    // RxJS reports an unhandled error on a timer: let it come before judging the run.
    await new Promise((resolve) => setTimeout(resolve, 1));
    current.violations.push(...unhandled.splice(0));
    const violations = restViolations(current);
    if (violations.length > 0) throw new Error(`once at rest:\n  ${violations.join('\n  ')}${trace(current)}`);
    passed = true;
  } finally {
    for (const tab of current.live()) current.dispose(tab);
    world = null;
    // A run that failed early may still have an unhandled error on its way: it is not the next run's.
    if (!passed) await new Promise((resolve) => setTimeout(resolve, 1));
    unhandled.length = 0;
  }
}

function property(
  name: string,
  runs: number,
  platform: fc.Arbitrary<Platform>,
  commands: ReturnType<typeof lifecycleCommands>,
  on = true,
) {
  (on ? it : it.skip)(
    `${name} (${runs} runs, seed ${SEED})`,
    async () => {
      process.stdout.write(
        `[model:${name}] runs=${runs} MODEL_SEED=${SEED}${PATH === undefined ? '' : ` MODEL_PATH=${PATH}`} ${familiesLine()}\n`,
      );
      let count = 0;
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(platform, initialQuota, commands, async (setup, initial, list) => {
          count += 1;
          await runOnce(setup, initial, list);
        }),
        { numRuns: runs, seed: SEED, ...(PATH === undefined ? {} : { path: PATH, endOnFailure: true }) },
      );
      figures[`${name === 'one client and its successors' ? 'lifecycle' : 'tabs'}Runs`] = count;
      figures[`${name === 'one client and its successors' ? 'lifecycle' : 'tabs'}Ms`] = Date.now() - started;
    },
    900_000,
  );
}

// Broken platforms (issue 23.4) in half the tab runs each: a channel that throws, a query() that fails.
const channels = familyOn('brokenChannel')
  ? fc.constantFrom<NonNullable<Platform['channel']>>('ok', 'ok', 'throwsOnOpen', 'throwsOnPost')
  : fc.constant('ok' as const);
const queries = familyOn('queryless')
  ? fc.constantFrom<QueryMode>('ok', 'ok', 'ok', 'ok', 'missing', 'throws', 'rejects', 'junk')
  : fc.constant<QueryMode>('ok');

describe('the lifecycle model (holds, aborts, dispose, reloads, duplicated tabs; invariants after every command)', () => {
  const partial = partialRun();
  (process.env[ALLOW_PARTIAL] === '1' ? it.skip : it)(
    `runs every command family, none parked (${ALLOW_PARTIAL}=1 allows a partial run)`,
    () => {
      expect(partial).toEqual([]);
    },
  );
  property(
    'one client and its successors',
    RUNS,
    fc.record({ sync: fc.constant(false), webLocks: fc.boolean(), shared: fc.constant(false) }),
    lifecycleCommands(),
  );
  property(
    'tabs with and without tabSync, Web Locks and a shared storage',
    TAB_RUNS,
    fc.record({ sync: fc.boolean(), webLocks: fc.boolean(), shared: fc.boolean(), channel: channels, query: queries }),
    tabCommands(),
    familyOn('tabs'),
  );
});
