// `unified-billing/react`: hooks over useSyncExternalStore. React is an optional peer dependency.
export { useBillingCheck, useBillingStatus, useFreePeriodRemaining, useUsage } from './hooks';
export { billingStores, type BillingStores, type ExternalStore } from './external-store';
export { BillingProvider, useBilling, type BillingProviderProps, type BillingUser } from './provider';
