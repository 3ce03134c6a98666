export { startReferenceBackend } from './http/reference-backend';
export { createReferenceBackend } from './http/create-reference-backend';
export type {
  InProcessBackendOptions,
  InProcessReferenceBackend,
  ReferenceBackendHooks,
  ReferenceFetch,
} from './backend-types';
export type { ReferenceBackend, ReferenceBackendOptions } from './http/server-types';
export type {
  ChargeRecord,
  Fault,
  FaultKind,
  ModuleQuota,
  ReferenceChange,
  ReferenceUser,
  ReferenceUserPatch,
  ReferenceUserSnapshot,
  RequestRecord,
} from './types';
export { REFERENCE_CHANGES_PATH, REFERENCE_COOKIES } from './backend/change-stream';
export { BACKEND_CODES, MAX_BODY_BYTES, MAX_EXTERNAL_ID_LENGTH, REFERENCE_PATHS } from './backend/wire';
export type { Envelope } from './backend/wire';
export { createTestClock } from './test-clock';
export type { SettleOptions } from './settle';
export type { TestClock, TestClockOptions } from './test-clock';
