import { formatCalendarDate, keeperLettersFileName, type LetterBatch } from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Card } from '../../../lib/card.tsx';
import { DownloadButton } from '../../../lib/download-button.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useAsync } from '../../../lib/use-async.ts';
import { downloadKeeperLetterBatch, KEEPER_BATCH_FAILED, KEEPER_LETTERS_FAILED, listKeeperLetterBatches } from '../api/keepers.ts';

/** A batch's count as the admin reads it, with a bar screen readers hear as the count. */
export function BatchProgress({ batch }: { batch: LetterBatch }) {
  const waiting = batch.state === 'WAITING';
  return (
    <div className="batch-progress">
      <p role="status">
        {waiting
          ? `Waiting to make ${batch.total} ${batch.total === 1 ? 'letter' : 'letters'} dated ${formatCalendarDate(batch.postOn)}...`
          : `Making letters dated ${formatCalendarDate(batch.postOn)}: ${batch.made} of ${batch.total}`}
      </p>
      <progress value={batch.made} max={batch.total} aria-label="Letters made" />
      <p className="muted">Each letter is kept with its notice as it is made. This page can be left: the letters are made all the same.</p>
    </div>
  );
}

const STATE_TEXTS: Record<LetterBatch['state'], string> = {
  WAITING: 'Waiting',
  MAKING: 'Being made',
  READY: 'Ready',
  FAILED: 'Not made',
};

/** The newest batches, so one still being made, or made while away, is found again. */
export function RecentLetterBatches({ reloadKey }: { reloadKey: number }) {
  const batches = useAsync(listKeeperLetterBatches, [reloadKey], KEEPER_BATCH_FAILED);
  const items = batches.data?.items ?? [];
  return (
    <Card title="Recent batches of letters" titleId="keeper-batches-title">
      {batches.error ? <p role="alert">{toApiError(batches.error, KEEPER_BATCH_FAILED).message}</p> : null}
      {batches.isLoading && !batches.data ? <p className="muted">Loading batches...</p> : null}
      {batches.data && items.length === 0 ? <p className="muted">No letters have been made in a batch yet.</p> : null}
      {items.length > 0 ? (
        <ul className="history" aria-label="Recent batches of letters">
          {items.map((batch) => (
            <li key={batch.id} className="batch-list__item">
              <span>
                <strong>
                  {batch.total} {batch.total === 1 ? 'letter' : 'letters'} dated {formatCalendarDate(batch.postOn)}
                </strong>
                <span className="muted">
                  {' '}
                  by {batch.createdByName}, {formatDateTime(batch.createdAt)}: {STATE_TEXTS[batch.state]}
                  {batch.state === 'MAKING' ? ` (${batch.made} of ${batch.total})` : ''}
                </span>
                {batch.state === 'FAILED' && batch.error ? <span className="batch-list__error">{batch.error}</span> : null}
              </span>
              {batch.state === 'READY' ? (
                <DownloadButton
                  load={() => downloadKeeperLetterBatch(batch.id)}
                  fileName={keeperLettersFileName(batch.postOn)}
                  label="Download"
                  busyLabel="Downloading..."
                  doneText="Letters downloaded"
                  failedMessage={KEEPER_LETTERS_FAILED}
                  aria-label={`Download the ${batch.total} ${batch.total === 1 ? 'letter' : 'letters'} dated ${formatCalendarDate(batch.postOn)}`}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
