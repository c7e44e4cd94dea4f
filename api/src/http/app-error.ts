import { ERROR_CODES, type ErrorCode } from '@parkpatrol/shared';

/** The one error type services throw; app.onError turns it into the envelope. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, string>; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = options.details;
    this.headers = options.headers;
  }
}

/** The error as one sentence for a job's record, each distinct reason in its details after it: what the admin reads of a batch that failed. */
export function failureText(error: AppError): string {
  const reasons = [...new Set(Object.values(error.details ?? {}))];
  return reasons.length > 0 ? `${error.message} (${reasons.join('; ')})` : error.message;
}
