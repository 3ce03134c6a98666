import type { ReferenceChange } from '../types';
import { cookieValue, REFERENCE_COOKIES } from './cookies';
import type { BackendRequest } from './exchange';
import { bearerToken } from './handle-request';

export { REFERENCE_COOKIES };

/**
 * The path of the reference backend's event stream (`text/event-stream`) of
 * its changes for one user, beside the three calls. HTTP only: in process,
 * read `backend.changes(token)`.
 *
 * @example
 * ```ts
 * const source = new EventSource(`${backend.url}${REFERENCE_CHANGES_PATH}`, { withCredentials: true });
 * ```
 */
export const REFERENCE_CHANGES_PATH = '/billing/changes';

/** Who asks for the event stream: the bearer token of the header, else of the token cookie. */
export function streamToken(request: BackendRequest): string | undefined {
  return bearerToken(request.header('authorization')) ?? cookieValue(request, REFERENCE_COOKIES.token);
}

/** One change as a server-sent event: its name is `changed`, its data the kind (`top-up` or `charge`). */
export function changeEvent(change: ReferenceChange): string {
  return `event: changed\ndata: ${change.kind}\n\n`;
}
