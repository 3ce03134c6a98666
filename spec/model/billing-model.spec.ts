import fc from 'fast-check';
import { recordFigures } from '../helpers/figures';
import { commandArbitrary } from './commands';
import { stats } from './compare';
import { startSystem, stopSystem } from './real-system';

// `npm test` keeps this small; `.ci/run` sets MODEL_RUNS=1000.
const RUNS = Number(process.env['MODEL_RUNS'] ?? 25);
// Replay a failure with the seed and path fast-check prints: MODEL_SEED=<seed> MODEL_PATH=<path>.
const SEED = Number(process.env['MODEL_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const PATH = process.env['MODEL_PATH'];

const initialQuota = fc.record({
  free: fc.nat(3),
  extraTotal: fc.nat(2),
  price: fc.integer({ min: 1, max: 5 }),
  balance: fc.nat(12),
});

let runs = 0;
let passed = false;

afterAll(() => {
  recordFigures('model', {
    seed: SEED,
    runs,
    commands: stats.commands,
    comparisons: stats.comparisons,
    divergences: passed ? 0 : 'see failure',
  });
});

describe('the client against a model (fast-check commands, reference backend)', () => {
  it(`agrees with the model after every command (${RUNS} runs, seed ${SEED})`, async () => {
    process.stdout.write(
      `[model] MODEL_RUNS=${RUNS} MODEL_SEED=${SEED}${PATH === undefined ? '' : ` MODEL_PATH=${PATH}`}\n`,
    );
    await fc.assert(
      fc.asyncProperty(initialQuota, commandArbitrary, async (initial, commands) => {
        runs += 1;
        const { model, real } = await startSystem({ ...initial, freeTotal: initial.free + initial.extraTotal });
        try {
          await fc.asyncModelRun(() => ({ model, real }), commands);
        } finally {
          await stopSystem(real);
        }
      }),
      { numRuns: RUNS, seed: SEED, ...(PATH === undefined ? {} : { path: PATH, endOnFailure: true }) },
    );
    passed = true;
  }, 600_000);
});
