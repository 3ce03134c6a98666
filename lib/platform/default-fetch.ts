import crossFetch from 'cross-fetch';
import type { FetchLike } from '../types';

/** `cross-fetch`: the Node build's fetch, and any runtime's without a global one. */
export const defaultFetch: FetchLike = crossFetch as FetchLike;
