import { Link } from 'react-router-dom';
import { Eye, EyeOff } from 'lucide-react';
import { paths } from '../../../config/paths.ts';
import { ConfirmButton } from '../../../lib/confirm-button.tsx';
import { useCurrentUser } from '../../../lib/current-user.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { getLocalDb } from '../../../lib/local-db/database.ts';
import { closeObservation, type ObservationRow } from '../../../lib/local-db/observations.ts';
import { formatClockTime } from '../evidence/evidence-format.ts';
import { describeDue, OBSERVATION_TEXTS, observationTitle } from './observation-texts.ts';
import { dueTimeOf, useNowUntil, useObservations } from './use-observations.ts';

/** How many closed observations the dashboard keeps in view; older ones stay on the phone. */
const CLOSED_SHOWN = 5;

function photosText(count: number): string {
  return `${count} ${count === 1 ? 'photo' : 'photos'}`;
}

/**
 * The officer's observations (docs/decisions/0012): open ones with the time each falls due, the
 * way back to each, and the recently closed ones. Nothing shows while there are none.
 */
export function OpenObservations() {
  const userId = useCurrentUser()?.id ?? null;
  const { open, closed } = useObservations(userId);
  const now = useNowUntil(open.map(dueTimeOf));
  if (open.length === 0 && closed.length === 0) return null;
  return (
    <>
      {open.length > 0 ? (
        <section className="pending-section" aria-labelledby="open-observations-title">
          <h2 className="pending-section__title" id="open-observations-title">
            {OBSERVATION_TEXTS.openTitle}
          </h2>
          <ul className="pending-list">
            {open.map((row) => (
              <OpenObservationItem key={row.id} row={row} now={now} />
            ))}
          </ul>
        </section>
      ) : null}
      {closed.length > 0 ? (
        <section className="pending-section" aria-labelledby="closed-observations-title">
          <h2 className="pending-section__title" id="closed-observations-title">
            {OBSERVATION_TEXTS.closedTitle}
          </h2>
          <ul className="pending-list">
            {closed.slice(0, CLOSED_SHOWN).map((row) => (
              <li key={row.id} className="pending-item pending-item--closed" data-observation-id={row.id}>
                <span className="pending-item__text">
                  <span className="pending-item__title">{observationTitle(row)}</span>
                  <span className="pending-item__details muted">{`First seen ${formatDateTime(row.observedAt ?? '')}`}</span>
                  <span className="pending-item__state">
                    <EyeOff aria-hidden="true" size={16} />{' '}
                    {OBSERVATION_TEXTS.closed(
                      formatClockTime(row.observationClosedAt ?? new Date(row.updatedAt).toISOString(), Date.now()),
                    )}
                    {row.observationSyncedStatus !== 'GONE' ? (
                      <span className="muted">{` · ${row.observationSyncError ?? OBSERVATION_TEXTS.notSynced}`}</span>
                    ) : null}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function OpenObservationItem({ row, now }: { row: ObservationRow; now: number }) {
  const title = observationTitle(row);
  const isDue = dueTimeOf(row) <= now;
  return (
    <li className={`pending-item${isDue ? ' pending-item--due' : ''}`} data-observation-id={row.id}>
      <span className="pending-item__text">
        <span className="pending-item__title">{title}</span>
        <span className="pending-item__details muted">{`First seen ${formatClockTime(row.observedAt ?? '', now)} · ${photosText(row.photoCount)}`}</span>
        <span className="pending-item__state">
          <Eye aria-hidden="true" size={16} /> {describeDue(row, now)}
        </span>
      </span>
      <span className="pending-item__actions">
        <Link
          to={paths.continueDraft(row.id)}
          className={`button ${isDue ? 'button--primary' : 'button--secondary'}`}
          aria-label={`${OBSERVATION_TEXTS.goBack}: ${title}`}
        >
          {OBSERVATION_TEXTS.goBack}
        </Link>
        <ConfirmButton
          aria-label={`${OBSERVATION_TEXTS.gone}: ${title}`}
          title={`${OBSERVATION_TEXTS.gone}?`}
          message={OBSERVATION_TEXTS.goneConfirm}
          confirmLabel={OBSERVATION_TEXTS.gone}
          onConfirm={() => closeObservation(getLocalDb(), row.id)}
        >
          {OBSERVATION_TEXTS.gone}
        </ConfirmButton>
      </span>
    </li>
  );
}
