import { SERVER_MESSAGES } from '@parkpatrol/shared';

/*
 * Apart from outbox-texts.ts: those are read by the shell on every page, the sign-in page
 * included, which must not carry the outbox's own code (web/e2e/delivery.spec.ts).
 */

/** Why a notice went back to the queue: its row says so after 'Waiting for signal'. */
export const RETRY_REASONS = {
  offline: 'No connection',
  timeout: 'The upload timed out',
  unexpectedAnswer: 'The server gave an unexpected answer',
  serverUnavailable: 'The server is unavailable',
  rateLimited: SERVER_MESSAGES.tooManyRequests,
  sessionChanged: 'Another officer signed in on this device',
} as const;
