export { createClient } from './client';
export { consumeWith, type ConsumeOutcome } from './consume-with';
export { BillingError, isBillingError, type BillingErrorCode, type BillingErrorDetails } from './errors';
export { monotonicScheduler } from './scheduler';
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
  LocksLike,
  RecoveredConsume,
  StorageLike,
  SyncOptions,
  UsageInfo,
} from './types';
