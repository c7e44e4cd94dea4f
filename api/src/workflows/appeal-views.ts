import type { AppealListQuery } from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
import { findAppealById, findAttachments, listAllAppeals, listAppeals, loadAppeal, type AppealRow } from '../repositories/appeals.ts';
import { keptAppealLetter } from './appeal-letter.ts';
import { appealNotFound } from './decide-appeal.ts';

type Deps = Pick<AppDeps, 'db'>;

/** One page of the appeals queue. */
export async function listAppealPage(deps: Deps, query: AppealListQuery) {
  const { items, total } = await listAppeals(deps.db, query);
  return { items, total, page: query.page, limit: query.limit };
}

/** Every appeal the queue's filters select, for the CSV. */
export function listEveryAppeal(deps: Deps, query: AppealListQuery) {
  return listAllAppeals(deps.db, query);
}

/** An appeal as the API shows it, from its row (after a change) or its id. */
export function viewAppealRow(deps: Deps, row: AppealRow) {
  return loadAppeal(deps.db, row);
}

export async function viewAppeal(deps: Deps, id: string) {
  const row = await findAppealById(deps.db, id);
  if (!row) throw appealNotFound();
  return loadAppeal(deps.db, row);
}

/** The decision letter as it was kept when the appeal was decided. */
export async function appealLetterOf(deps: Parameters<typeof keptAppealLetter>[0], id: string, now: Date) {
  const row = await findAppealById(deps.db, id);
  if (!row) throw appealNotFound();
  return keptAppealLetter(deps, row, now);
}

/** One of the motorist's files, opened from the evidence store. */
export async function openAppealAttachment(deps: Pick<AppDeps, 'db' | 'evidence'>, appealId: string, attachmentId: string) {
  const attachments = await findAttachments(deps.db, appealId);
  const attachment = attachments.find((item) => item.id === attachmentId);
  if (!attachment) throw new AppError('NOT_FOUND', 'No such attachment');
  const file = await deps.evidence.open(attachment.file_name);
  if (!file) throw new AppError('NOT_FOUND', 'No such attachment');
  return { attachment, file };
}
