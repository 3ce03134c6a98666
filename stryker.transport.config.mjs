// The transport alone on the shared machine (docs/reliability.md, "Mutation score"):
// `npx stryker run stryker.transport.config.mjs` (or `--mutate lib/transport/decode.ts` for one
// file, with `--incrementalFile reports/stryker-incremental-<file>.json`). Only the transport's own
// specs and the error classes it builds run: with the client specs too, every surviving mutant reran
// some 200 client tests and the 534 mutants needed over two hours on the shared machine. One test process.
import { scopedConfig } from './stryker.scoped.mjs';

// Which specs run: by default all of the transport's own; per file, the specs about that file
// (`MUTATION_SPECS=spec/transport/decode.spec.ts,...`), since a module-level ("static") mutant reruns
// every spec in the set. The figures in docs/reliability.md name the set each file ran with.
export default scopedConfig('transport', 'spec/transport,spec/shared');
