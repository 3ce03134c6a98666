// Moved to lib/shared/billing-status.ts (issue 24: a public value type, below core and the sub-entries).
// Kept only for lib/store/create-store.ts, which the store branch rewrites: delete after that merge.
export type { BillingStatus } from '../shared/billing-status';
