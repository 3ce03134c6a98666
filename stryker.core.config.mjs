// One core file at a time on the shared machine (docs/reliability.md, "Mutation score"):
// `npx stryker run stryker.core.config.mjs --mutate lib/core/reducer.ts`. Only the pure-core specs
// and the client spec of the status before the first answer run by default: each mutant then costs
// milliseconds of tests, where the client specs (which also reach the reducer) cost seconds on a
// loaded machine. A mutant that survives them is rerun against more specs with
// `MUTATION_SPECS=spec/core,spec/client,spec/store npx stryker run stryker.core.config.mjs --mutate 'lib/core/reducer.ts:LINE'`.
// One test process.
import { scopedConfig } from './stryker.scoped.mjs';

export default scopedConfig('core', 'spec/core,spec/client/initial-status.spec.ts');
