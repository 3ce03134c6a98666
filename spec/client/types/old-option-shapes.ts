// The option shapes of 0.1, as a user upgrading still writes them. `tsc` (npm run typecheck, and
// ts-jest) must refuse each marked line: an unused `@ts-expect-error` fails the type check, so a type
// that accepts an old shape again is caught. old-option-shapes.spec.ts reads what each error says.
import { billingEvents, refetchOn, type ClientOptions } from '../../../lib';

const base = { baseUrl: 'http://billing.test', appKey: 'poster' };
const fromVariable = { onFocus: true };

export const OLD_SHAPES: ClientOptions[] = [
  // @ts-expect-error names refetchOn({ focus }) and refetchOn({ online })
  { ...base, refetch: { onFocus: true, onOnline: true } },
  // @ts-expect-error names refetchOn({ intervalMs })
  { ...base, refetch: { intervalMs: 60_000 } },
  // @ts-expect-error names RefetchTakesRefetchOn
  { ...base, refetch: {} },
  // @ts-expect-error names refetchOn({ focus, online, intervalMs })
  { ...base, refetch: fromVariable },
  // @ts-expect-error names billingEvents({ onEvent })
  { ...base, onEvent: (event: unknown) => console.debug(event) },
];

// The new shapes compile.
export const NEW_SHAPES: ClientOptions[] = [
  { ...base, refetch: refetchOn({ focus: true, online: true, intervalMs: 60_000 }) },
  { ...base, events: billingEvents({ onEvent: (event) => console.debug(event.type) }) },
];
