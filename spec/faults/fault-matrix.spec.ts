import { recordFigures } from '../helpers/figures';
import { consumeScenarios } from './consume-scenarios';
import { openBackend, type BackendKind } from './harness';
import { runScenario } from './run-scenario';
import { usageScenarios } from './usage-scenarios';

export const allScenarios = [...consumeScenarios, ...usageScenarios];
const passed: Record<BackendKind, number> = { 'in-process': 0, reference: 0 };
afterAll(() => {
  recordFigures('fault-matrix', {
    scenarios: allScenarios.length,
    passedInProcess: passed['in-process'],
    passedReference: passed.reference,
  });
});

describe.each<BackendKind>(['in-process', 'reference'])('fault matrix against the %s backend', (kind) => {
  it.each(allScenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_, scenario) => {
    const backend = await openBackend(kind);
    try {
      await runScenario(backend, scenario);
      passed[kind] += 1;
    } finally {
      await backend.close();
    }
  });
});
