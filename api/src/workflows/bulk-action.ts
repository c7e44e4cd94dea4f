import { SERVER_MESSAGES, type BulkResult } from '@parkpatrol/shared';
import { AppError } from '../http/app-error.ts';
import type { Logger } from '../services/logger.ts';

/**
 * A bulk action as single actions: each id once (a row ticked twice is acted on once), in the
 * order first asked for, one after another (SQLite has one writer), each committing on its own
 * so one refusal undoes none of the others. Our own refusals come back as that row's error,
 * worded as the single action words them; anything unexpected is logged and reported generically
 * without stopping the rest.
 */
export async function actOnEach(
  ids: readonly string[],
  options: { action: string; label: (id: string) => string; act: (id: string) => Promise<void>; logger: Logger },
): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for (const id of new Set(ids)) {
    const label = options.label(id);
    try {
      await options.act(id);
      results.push({ id, label, success: true });
    } catch (error) {
      if (!(error instanceof AppError)) {
        options.logger.error(`${options.action} failed`, {
          id,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        });
      }
      results.push({ id, label, success: false, error: error instanceof AppError ? error.message : SERVER_MESSAGES.internal });
    }
  }
  return results;
}
