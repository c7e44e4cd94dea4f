import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { BellRing } from 'lucide-react';
import { paths } from '../../../config/paths.ts';
import { useFilingCarParks } from '../../../lib/filing-data.ts';
import { OBSERVATION_TEXTS, observationTitle } from './observation-texts.ts';
import { showDueNotification } from './reminders.ts';
import { dueTimeOf, useNowUntil, useObservations } from './use-observations.ts';

function carParkNameOf(carParks: ReadonlyArray<{ id: string; name: string }> | null, id: string): string {
  return carParks?.find((carPark) => carPark.id === id)?.name ?? 'the car park';
}

/**
 * On every signed-in screen: which observations are due now, with the way back to them; and,
 * once per observation and page, a system notification where the officer allowed them.
 */
export function ObservationDueBanner({ userId, exceptDraftId = null }: { userId: string | null; exceptDraftId?: string | null }) {
  const { open } = useObservations(userId);
  const { carParks } = useFilingCarParks(userId, { refresh: false });
  const carParkName = (row: { carParkId: string }) => carParkNameOf(carParks, row.carParkId);
  const now = useNowUntil(open.map(dueTimeOf));
  const allDue = open.filter((row) => dueTimeOf(row) <= now);
  const due = allDue.filter((row) => row.id !== exceptDraftId);
  const notified = useRef(new Set<string>());

  useEffect(() => {
    // The notification also for the open form's own: the phone may be in a pocket.
    for (const row of allDue) {
      if (notified.current.has(row.id)) continue;
      notified.current.add(row.id);
      void showDueNotification({
        id: row.id,
        title: OBSERVATION_TEXTS.notificationTitle,
        body: OBSERVATION_TEXTS.bannerOne(observationTitle(row), carParkNameOf(carParks, row.carParkId)),
        url: paths.continueDraft(row.id),
      });
    }
  }, [allDue, carParks]);

  if (due.length === 0) return null;
  const first = due[0]!;
  return (
    <div className="observation-banner" role="alert">
      <BellRing aria-hidden="true" size={20} />
      <p className="observation-banner__text">
        {due.length === 1
          ? OBSERVATION_TEXTS.bannerOne(observationTitle(first), carParkName(first))
          : OBSERVATION_TEXTS.bannerMany(due.length)}
      </p>
      <Link to={due.length === 1 ? paths.continueDraft(first.id) : paths.dashboard} className="button button--primary">
        {due.length === 1 ? OBSERVATION_TEXTS.goBack : OBSERVATION_TEXTS.openTitle}
      </Link>
    </div>
  );
}
