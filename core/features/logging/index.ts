// `sevenfold/logging`: request ids and one log line per request, written on sevenfold's public API as any app's
// hooks would be.
export { requestId, SAFE_REQUEST_ID, type RequestIdOptions } from './request-id.js';
export { REDACTED_HEADERS, requestLog, type RequestLogLevel, type RequestLogOptions } from './request-log.js';
