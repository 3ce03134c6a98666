import type { ServerResponse } from 'node:http';
import type { BackendCore } from '../backend/backend-core';
import { changeEvent, streamToken } from '../backend/change-stream';
import { cookieValue, REFERENCE_COOKIES } from '../backend/cookies';
import { streamCorsHeaders } from '../backend/cors';
import type { BackendRequest } from '../backend/exchange';
import { jsonAnswer } from '../backend/responses';
import { errorReply, type Reply } from '../backend/wire';
import { serveResponse } from './serve-reply';

/**
 * The event stream of one user's changes (`GET REFERENCE_CHANGES_PATH`), on
 * Node's `http`: authenticated as the three calls are (`Authorization:
 * Bearer`), or by the token cookie for an `EventSource`, which cannot send
 * headers; 401 otherwise. Each change is an event named `changed` whose data
 * is its kind; a charge made with this stream's device cookie is not sent.
 * The subscription ends when the connection does. Not in `requests()`.
 * With `cors: false`, neither it nor its refusals carry a CORS header.
 */
export function serveChanges(core: BackendCore, request: BackendRequest, res: ServerResponse): void {
  // As the answers do, the stream obeys `cors`: with `cors: false`, no Access-Control-Allow-* header at all.
  const cors = core.cors ? streamCorsHeaders(request) : {};
  const refuse = (reply: Reply) =>
    serveResponse(res, jsonAnswer({ ...reply, headers: { ...reply.headers, ...cors } }), null);
  if (request.method !== 'GET') return refuse(errorReply(405, 'method not allowed', { Allow: 'GET' }));
  const token = streamToken(request);
  if (token === undefined || !hasUser(core, token))
    return refuse(errorReply(401, 'unauthenticated', { 'WWW-Authenticate': 'Bearer' }));
  const device = cookieValue(request, REFERENCE_COOKIES.device);
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', ...cors });
  // A comment first: the browser has the headers, so the stream is open before any change.
  res.write(': connected\n\n');
  const subscription = core.hooks.changes(token).subscribe((change) => {
    if (device === undefined || change.device !== device) res.write(changeEvent(change));
  });
  res.on('close', () => subscription.unsubscribe());
}

function hasUser(core: BackendCore, token: string): boolean {
  try {
    core.hooks.getUser(token);
    return true;
  } catch {
    return false;
  }
}
