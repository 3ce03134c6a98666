// A React Native screen over unified-billing/react, as docs/recipes/react-native.ts
// builds its client: React Native's fetch passed in, and a refetch each time the app
// returns to the foreground (refetchOn({ when }) over AppState).
import { useEffect, useState } from 'react';
import { AppState, Pressable, Text, View, type AppStateStatus } from 'react-native';
import { filter, fromEventPattern } from 'rxjs';
import { createClient, isBillingError, refetchOn } from 'unified-billing';
import { BillingProvider, useBilling, useBillingCheck, useFreePeriodRemaining, useUsage } from 'unified-billing/react';

const foreground$ = fromEventPattern<AppStateStatus>(
  (handler) => AppState.addEventListener('change', handler),
  (_handler, subscription: { remove(): void }) => subscription.remove(),
).pipe(filter((state) => state === 'active'));

function Quota() {
  const billing = useBilling();
  const usage = useUsage(billing);
  const { canProceed, reason } = useBillingCheck(billing);
  const seconds = useFreePeriodRemaining(billing);
  const [said, say] = useState('');
  const [exports, setExports] = useState(0);
  useEffect(() => {
    void billing.getUsage().catch(() => undefined);
  }, [billing]);
  const onPress = () => {
    const externalId = `export-${exports + 1}`;
    setExports(exports + 1);
    billing.consume({ externalId }).then(
      (result) => say(result.isCredit ? 'Paid with credits' : 'Used a free export'),
      (error: unknown) => say(isBillingError(error, 'insufficient_credits') ? 'Top up to export' : String(error)),
    );
  };
  if (usage === null) return <Text>Loading…</Text>;
  return (
    <View>
      <Text>{`${usage.freeRemaining} of ${usage.freeTotal} free · ${usage.creditsBalance} credits`}</Text>
      <Text>{seconds > 0 ? `Free again for ${seconds} s` : `Next export: ${reason}`}</Text>
      <Pressable accessibilityRole="button" disabled={!canProceed} onPress={onPress}>
        <Text>Export</Text>
      </Pressable>
      <Text>{said}</Text>
    </View>
  );
}

export function BillingScreen({ baseUrl, token }: { baseUrl: string; token: string }) {
  const create = () =>
    createClient({
      baseUrl,
      appKey: 'poster',
      headers: async () => ({ Authorization: `Bearer ${token}` }),
      fetch: (input, init) => fetch(input, init),
      refetch: refetchOn({ when: foreground$ }),
    });
  return (
    <BillingProvider create={create} user={token}>
      <Quota />
    </BillingProvider>
  );
}
