import { v4 } from 'uuid';

/** A v4 UUID for a consume's `external_id`. */
export function randomId(): string {
  return v4();
}
