import { recordFigures } from '../helpers/figures';
import { consumeScenarios } from './consume-scenarios';
import { openBackend, type TransportName } from '../testing/http-helpers';
import { KINDS } from './harness';
import { runScenario } from './run-scenario';
import { usageScenarios } from './usage-scenarios';

export const allScenarios = [...consumeScenarios, ...usageScenarios];
const passed: Record<TransportName, number> = { 'in-process fetch': 0, HTTP: 0 };
afterAll(() => {
  recordFigures('fault-matrix', {
    scenarios: allScenarios.length,
    passedInProcess: passed['in-process fetch'],
    passedReference: passed.HTTP,
  });
});

describe.each(KINDS)('fault matrix against the %s backend', (_kind, transport) => {
  it.each(allScenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_, scenario) => {
    const backend = await openBackend(transport);
    try {
      await runScenario(backend, scenario);
      passed[transport] += 1;
    } finally {
      await backend.close();
    }
  });
});
