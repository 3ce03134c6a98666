export { createClient } from './client';
export { consumeWith } from './consume-with';
export { BillingError, isBillingError, type BillingErrorCode, type BillingErrorDetails } from './errors';
export { monotonicScheduler } from './scheduler';
export { tabSync } from './sync';
export { reloadSafe } from './persist';
export type { BillingFeature, FeatureSetup } from './engine/feature';
export type { BillingModule, Client, CreditsModule } from './client-types';
export type { ClientOptions } from './options';
export type { BillingStatus } from './status/billing-status';
export type { BillingEvent, BillingEventOf, BillingEventType } from './events/billing-event';
export type { BillingPreview } from './core/preview';
export type { BillingSnapshot } from './snapshot';
export type { DevtoolsConnection, DevtoolsHook, DevtoolsState } from './devtools-hook';
export type { RefetchOptions } from './refetch/refetch';
export type { LocksLike, RecoveredConsume, ReloadSafeOptions, StorageLike, SyncOptions } from './feature-types';
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
} from './types';
