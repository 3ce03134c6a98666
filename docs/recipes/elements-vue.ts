// Recipe: the billing elements in Vue 3, on the app's one client (vue.ts's
// `installBilling` provides it; `inject(billingKey)` finds it).
//
// Vite's config tells the template compiler the two tags are custom elements.
// Write the check inline: the config loads in Node, and taking it from a module
// that creates a client would create one there on every load.
//
//   // vite.config.ts
//   import vue from '@vitejs/plugin-vue';
//   import { defineConfig } from 'vite';
//   const isCustomElement = (tag: string) => tag === 'billing-meter' || tag === 'billing-gate';
//   export default defineConfig({ plugins: [vue({ template: { compilerOptions: { isCustomElement } } })] });
//
// This file registers the elements and, with `unified-billing/element/vue`,
// types both tags in templates: vue-tsc rejects `:billing="42"` and a handler
// for the wrong event. Vue sets `billing` as a DOM property, since the element
// has one. In a component:
//
//   <!-- ExportBar.vue -->
//   <script setup lang="ts">
//   import { inject, ref } from 'vue';
//   import { billingKey } from './vue';
//   import { deniedMessage, grantedMessage } from './elements-vue';
//   const billing = inject(billingKey)!;
//   const message = ref('');
//   </script>
//   <template>
//     <billing-meter :billing="billing" unit="export" />
//     <billing-gate
//       :billing="billing"
//       @billing-granted="message = grantedMessage($event)"
//       @billing-denied="message = deniedMessage($event)"
//     >
//       <button type="button">Export</button>
//     </billing-gate>
//     <p role="alert">{{ message }}</p>
//   </template>
import type {} from 'unified-billing/element/vue';
import { defineBillingElements, type BillingGateEventMap } from 'unified-billing/element';

defineBillingElements();

/** After the charge: run the export here; `isBlacklisted` is yours to decide. */
export function grantedMessage({ detail }: BillingGateEventMap['billing-granted']): string {
  return detail.isBlacklisted ? 'Your account is restricted' : 'Exporting…';
}

/** The typed refusal: for `insufficient_credits`, what a top-up needs. */
export function deniedMessage({ detail }: BillingGateEventMap['billing-denied']): string {
  return detail.error.code === 'insufficient_credits'
    ? `Top up ${detail.creditsNeeded} credits to export`
    : 'Export failed, try again';
}
