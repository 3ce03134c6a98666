export { createClient } from './client';
export { consumeWith, type ConsumeOutcome } from './consume-with';
export { BillingError, isBillingError, type BillingErrorCode, type BillingErrorDetails } from './errors';
export { monotonicScheduler } from './scheduler';
export { tabSync } from './sync';
export { reloadSafe } from './persist';
export type { BillingFeature, FeatureSetup } from './engine/extensions';
export type {
  BillingCheckResult,
  BillingConsumeResult,
  BillingModule,
  BillingReason,
  Client,
  ClientOptions,
  ConsumeOptions,
  CreditsModule,
  FetchLike,
  GetUsageOptions,
  HeadersOption,
  HeadersValue,
  LocksLike,
  RecoveredConsume,
  ReloadSafeOptions,
  StorageLike,
  SyncOptions,
  UsageInfo,
} from './types';
