// Recipe: Vue 3 composables over `usage$` and `freePeriodRemaining$`. Each
// subscription is tied to the effect scope that called the composable (a
// component's setup, or an `effectScope()`), and `onScopeDispose` ends it
// when the component unmounts. `installBilling(app, token)` once in main.ts,
// then in a component:
//
//   <!-- BillingQuota.vue -->
//   <script setup lang="ts">
//   import { inject, ref } from 'vue';
//   import { billingKey, useBilling } from './vue';
//   const billing = inject(billingKey)!;
//   const { usage, verdict, seconds, error } = useBilling(billing);
//   const message = ref('');
//   const onExport = () => billing.consume().then(
//     () => (message.value = 'Exporting…'),
//     () => (message.value = 'Export refused'),
//   );
//   </script>
//   <template>
//     <p v-if="usage === null">Loading your quota…</p>
//     <p v-else>{{ usage.freeRemaining }} / {{ usage.freeTotal }} free · {{ usage.creditsBalance }} credits</p>
//     <small v-if="seconds > 0">Free again for {{ seconds }} s</small>
//     <button type="button" :disabled="usage === null || !verdict.canProceed" @click="onExport">Export</button>
//     <p role="alert">{{ error ?? message }}</p>
//   </template>
import { onScopeDispose, shallowRef, type App, type InjectionKey, type Ref } from 'vue';
import { merge, type Observable } from 'rxjs';
import { createClient, type BillingCheckResult, type BillingModule, type UsageInfo } from 'unified-billing';

/** Where components find the app's one billing module (`inject(billingKey)`). */
export const billingKey: InjectionKey<BillingModule> = Symbol('billing');

/** Creates the client once for the app and disposes it when the app unmounts. */
export function installBilling(app: App, token: () => string): BillingModule {
  const { billing } = createClient({
    baseUrl: 'https://api.example.com',
    appKey: 'poster',
    headers: () => ({ Authorization: `Bearer ${token()}` }),
  });
  app.provide(billingKey, billing);
  app.onUnmount(() => billing.dispose());
  return billing;
}

// A shallowRef fed by an observable: the objects the client emits are frozen
// snapshots, so deep reactivity would only cost proxies.
function refFrom<T>(source: Observable<T>, initial: T): Readonly<Ref<T>> {
  const value = shallowRef(initial);
  const subscription = source.subscribe((next) => (value.value = next));
  onScopeDispose(() => subscription.unsubscribe());
  return value;
}

/**
 * The quota, `null` until the first `getUsage()` answers (`usage$` emits
 * nothing before it): render a loading state for `null`, not "refused".
 */
export function useUsage(billing: BillingModule): Readonly<Ref<UsageInfo | null>> {
  return refFrom<UsageInfo | null>(billing.usage$, billing.getCachedUsage());
}

/** Whole seconds left in the free period, 0 when none is active. */
export function useFreePeriodRemaining(billing: BillingModule): Readonly<Ref<number>> {
  return refFrom(billing.freePeriodRemaining$, 0);
}

/**
 * The quota, the countdown and `check()`'s verdict, re-read whenever either
 * changes (the verdict depends on nothing else). Also starts the first fetch.
 */
export function useBilling(billing: BillingModule): {
  usage: Readonly<Ref<UsageInfo | null>>;
  seconds: Readonly<Ref<number>>;
  verdict: Readonly<Ref<BillingCheckResult>>;
  error: Readonly<Ref<string | null>>;
} {
  const usage = useUsage(billing);
  const seconds = useFreePeriodRemaining(billing);
  const verdict = shallowRef(billing.check());
  const error = shallowRef<string | null>(null);
  const subscription = merge(billing.usage$, billing.freePeriodRemaining$).subscribe(
    () => (verdict.value = billing.check()),
  );
  onScopeDispose(() => subscription.unsubscribe());
  if (usage.value === null) {
    billing.getUsage().catch(() => (error.value = 'Could not load your quota'));
  }
  return { usage, seconds, verdict, error };
}
