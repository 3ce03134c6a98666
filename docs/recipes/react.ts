// Recipe: React hooks from `unified-billing/react`. Written with createElement
// so the type check compiles it without JSX settings; in an app this is:
//
//   const usage = useUsage(billing);
//   return <p>{usage ? `${usage.freeRemaining} free` : 'Loading…'}</p>;
import { createElement as h, useEffect } from 'react';
import { createClient, refetchOn, tabSync, type BillingModule } from 'unified-billing';
import { useBillingCheck, useBillingStatus, useFreePeriodRemaining, useUsage } from 'unified-billing/react';

// One client per app, created outside components so renders share it.
// refetch: a balance topped up in another tab shows when the user comes back.
export const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  sync: tabSync(),
  refetch: refetchOn({ focus: true, online: true }),
});

export function QuotaBar({ billing }: { billing: BillingModule }) {
  const usage = useUsage(billing);
  const { canProceed } = useBillingCheck(billing);
  const seconds = useFreePeriodRemaining(billing);
  // "Not loaded yet" is not a refusal: before the first answer the button says so (the server renders this too).
  const status = useBillingStatus(billing);
  useEffect(() => {
    void billing.getUsage().catch(() => undefined);
  }, [billing]);
  return h(
    'div',
    null,
    h('span', null, usage === null ? 'Loading…' : `${usage.freeRemaining}/${usage.freeTotal} free`),
    seconds > 0 ? h('small', null, ` free for ${seconds} s`) : null,
    status.error !== null ? h('small', null, ` (${status.error.code})`) : null,
    h(
      'button',
      { disabled: !canProceed, onClick: () => void billing.consume().catch(() => undefined) },
      status.loaded ? 'Export' : 'Export (loading…)',
    ),
  );
}
