export { createClient } from './client/create-client';
export { consumeWith } from './rx/consume-with';
export { BillingError, isBillingError, type BillingErrorCode, type BillingErrorDetails } from './shared/errors';
export { monotonicScheduler } from './shared/scheduler';
export { tabSync } from './features/sync';
export { reloadSafe } from './features/persist';
export { refetchOn } from './features/refetch';
export { billingEvents, type BillingEventsOptions } from './features/events';
export type { BillingFeature, FeatureKind, FeatureSetup } from './features/feature';
export type { BillingModule, Client, CreditsModule } from './store/billing-module';
export type { ClientOptions, RefetchTakesRefetchOn } from './client/options';
export type { BillingStatus } from './shared/billing-status';
export type { BillingEvent, BillingEventOf, BillingEventType, ConsumeOrigin } from './shared/billing-event';
export type { ConsumeEvent } from './shared/billing-event';
export type { BillingPreview } from './core/preview';
export type { BillingSnapshot } from './core/snapshot';
export type { DevtoolsConnection, DevtoolsHook, DevtoolsState } from './features/devtools-hook';
export type { RefetchOptions } from './features/refetch/refetch';
export type { LocksLike, RecoveredConsume, ReloadSafeOptions, StorageLike, SyncOptions } from './shared/feature-types';
export type {
  BillingCheckResult,
  BillingConsumeResult,
  BillingReason,
  ConsumeOutcome,
  ConsumeOptions,
  FetchLike,
  GetUsageOptions,
  HeadersOption,
  HeadersValue,
  QuotaFields,
  UsageInfo,
} from './shared/types';
