// `unified-billing/element/react`: types only (its module is empty). Imported once in a React app, it
// types <billing-meter> and <billing-gate> in JSX. Apart from `unified-billing/element`, whose types
// must check in a project without @types/react (Vue, Angular, none).
// React 19 sets a custom element's properties (`billing`) and listens to its events through
// `on<event-name>` props.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { BillingModule } from '../../index';
import type { BillingGateElement, BillingGateEventMap, BillingMeterElement } from '../types';

/**
 * The JSX props of a billing element in React 19: the DOM's, plus `billing`.
 *
 * @example
 * ```tsx
 * import 'unified-billing/element/react';
 *
 * <billing-meter billing={client.billing} unit="export" />
 * ```
 */
export type BillingElementProps<E extends HTMLElement> = DetailedHTMLProps<HTMLAttributes<E>, E> & {
  billing?: BillingModule | null;
};

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'billing-meter': BillingElementProps<BillingMeterElement> & { unit?: string };
      'billing-gate': BillingElementProps<BillingGateElement> & {
        'onbilling-granted'?: (event: BillingGateEventMap['billing-granted']) => void;
        'onbilling-denied'?: (event: BillingGateEventMap['billing-denied']) => void;
      };
    }
  }
}
