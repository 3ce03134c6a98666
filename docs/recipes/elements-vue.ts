// Recipe: the billing elements in Vue 3. Tell Vue's template compiler the tags
// are custom elements (Vite: `vue({ template: { compilerOptions: { isCustomElement } } })`);
// Vue sets `billing` as a DOM property, since the element has one. In a component:
//
//   <template>
//     <billing-meter :billing="billing" unit="export" />
//     <billing-gate :billing="billing" @billing-granted="onGranted" @billing-denied="onDenied">
//       <button type="button">Export</button>
//     </billing-gate>
//   </template>
//
// Templates are not type-checked here; the script part below is.
import { createClient, type BillingConsumeResult } from 'unified-billing';
import { defineBillingElements, type BillingDenial } from 'unified-billing/element';

declare function runExport(): Promise<void>;

/** For vite.config.ts's `template.compilerOptions`: our two tags are not Vue components. */
export const isCustomElement = (tag: string): boolean => tag === 'billing-meter' || tag === 'billing-gate';

defineBillingElements();
export const { billing } = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

export function onGranted(event: CustomEvent<BillingConsumeResult>): void {
  if (!event.detail.isBlacklisted) void runExport();
}

export function onDenied(event: CustomEvent<BillingDenial>): void {
  console.warn('Export refused:', event.detail.error.code, event.detail.creditsNeeded);
}
