// A React Native screen over unified-billing/react, its client made by the React Native
// recipe as the package ships it (docs/recipes/react-native.ts, copied to recipe.ts by
// check-react-native.mjs with the AppState import its comment says to write): a refetch
// each time the app returns to the foreground, refetchOn({ when }) over AppState.
import { useEffect, useState } from 'react';
import { Pressable, Text, View } from 'react-native';
import { isBillingError } from 'unified-billing';
import { BillingProvider, useBilling, useBillingCheck, useFreePeriodRemaining, useUsage } from 'unified-billing/react';
import { createAppClient } from './recipe';

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

export function BillingScreen({ token }: { token: string }) {
  return (
    <BillingProvider create={() => createAppClient(async () => token)} user={token}>
      <Quota />
    </BillingProvider>
  );
}
