import { Camera, CircleCheck, Clock, EyeOff } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { ConfirmButton } from '../../../lib/confirm-button.tsx';
import { getLocalDb } from '../../../lib/local-db/database.ts';
import { closeObservation } from '../../../lib/local-db/observations.ts';
import { formatClockTime, formatRunningTime } from '../evidence/evidence-format.ts';
import { findSecondVisitTakenAt, SECOND_VISIT_TEXTS } from '../evidence/observation-rules.ts';
import { takeFiles } from '../evidence/photo-checklist.tsx';
import { OBSERVATION_TEXTS } from './observation-texts.ts';
import { useNowUntil } from './use-observations.ts';

type Props = {
  draftId: string;
  /** When the second visit is due (ISO). */
  dueAt: string;
  photos: ReadonlyArray<{ takenAt: string | null }>;
  /** Whether the observation is recorded yet (registration, car park, a photo): only then can it be closed. */
  isRecorded: boolean;
  onTakePhoto: (files: File[]) => void;
  isBusy: boolean;
};

/**
 * The observation's second visit (docs/decisions/0012), above every step of a stay notice: when
 * to come back, and once due, 'Vehicle still here' (a photo, its capture time kept like any
 * other) or 'Vehicle has gone' (closes the observation with no notice).
 */
export function SecondVisit({ draftId, dueAt, photos, isRecorded, onTakePhoto, isBusy }: Props) {
  const navigate = useNavigate();
  const due = Date.parse(dueAt);
  // Re-rendered each second while waiting, so the countdown and the buttons change on time.
  const now = useNowUntil([due], { tickMs: 1000 });
  const secondVisitAt = findSecondVisitTakenAt(dueAt, photos);
  const isDue = now >= due;
  const time = formatClockTime(dueAt, now);

  let text: string;
  let tone: string;
  if (secondVisitAt) {
    text = SECOND_VISIT_TEXTS.recorded(formatClockTime(secondVisitAt, now));
    tone = 'done';
  } else if (isDue) {
    text = SECOND_VISIT_TEXTS.dueNow;
    tone = 'due';
  } else {
    text = SECOND_VISIT_TEXTS.comeBack(time);
    tone = 'waiting';
  }

  return (
    <section className={`second-visit second-visit--${tone}`} aria-labelledby="second-visit-title">
      <h2 className="second-visit__title" id="second-visit-title">
        {secondVisitAt ? <CircleCheck aria-hidden="true" size={20} /> : <Clock aria-hidden="true" size={20} />}
        {secondVisitAt ? 'Second visit recorded' : isDue ? 'Second visit due now' : `Second visit at ${time}`}
      </h2>
      <p role="status" className="second-visit__text">
        {text}
      </p>
      {!secondVisitAt && !isDue ? <p className="muted" role="timer">{`${formatRunningTime(due - now, 'up')} to go`}</p> : null}
      {!secondVisitAt ? (
        <div className="second-visit__actions">
          {isDue ? (
            <label className={`button button--primary file-button${isBusy ? ' button--blocked' : ''}`}>
              <Camera aria-hidden="true" size={20} />
              {OBSERVATION_TEXTS.stillHere}
              <input
                type="file"
                accept="image/*"
                capture="environment"
                disabled={isBusy}
                onChange={(event) => {
                  const files = takeFiles(event);
                  if (files.length) onTakePhoto(files);
                }}
              />
            </label>
          ) : null}
          {isRecorded ? (
            <ConfirmButton
              variant="secondary"
              title={`${OBSERVATION_TEXTS.gone}?`}
              message={OBSERVATION_TEXTS.goneConfirm}
              confirmLabel={OBSERVATION_TEXTS.gone}
              onConfirm={async () => {
                await closeObservation(getLocalDb(), draftId);
                void navigate(paths.dashboard, { replace: true });
              }}
            >
              <EyeOff aria-hidden="true" size={18} />
              {OBSERVATION_TEXTS.gone}
            </ConfirmButton>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
