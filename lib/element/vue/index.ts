// `unified-billing/element/vue`: types only. Vue's template checker (vue-tsc) reads a tag's props
// from `$props` and its events from `$emit` of a `GlobalComponents` entry; these two make
// `:billing="42"` and a handler for the wrong event type errors. The tags stay custom elements.
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { BillingModule } from '../../index';
import type { BillingGateElement, BillingGateEventMap, BillingMeterElement } from '../types';

/**
 * A billing element as Vue's template checker sees it: the element, with the
 * props and events vue-tsc checks. A type only: `$props` and `$emit` exist on
 * no element.
 *
 * @example
 * ```ts
 * import type {} from 'unified-billing/element/vue'; // once, in env.d.ts or main.ts
 * // <billing-meter :billing="billing" unit="export" />: `billing` must be a BillingModule or null
 * ```
 */
export type BillingVueElement<
  Element extends HTMLElement,
  Props extends object,
  Events extends Record<string, Event>,
> = new () => Element & {
  /** @deprecated For template type checks only: no element has it. */
  $props: HTMLAttributes & Props & PublicProps;
  /** @deprecated For template type checks only: no element has it. */
  $emit: EmitFn<{ [Name in keyof Events]: (event: Events[Name]) => void }>;
};

type BillingProp = { billing?: BillingModule | null };
type GateEvents = Pick<BillingGateEventMap, 'billing-granted' | 'billing-denied'>;

declare module 'vue' {
  interface GlobalComponents {
    'billing-meter': BillingVueElement<BillingMeterElement, BillingProp & { unit?: string }, Record<never, never>>;
    'billing-gate': BillingVueElement<BillingGateElement, BillingProp, GateEvents>;
  }
}
