import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-aria-components';
import { ERROR_MESSAGES, pcnTitle, type Pcn, type PcnImage, type PcnListItem } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { KEEPER_SAVE_FAILED, saveKeeper } from '../api/keepers.ts';
import { getAdminPcn } from '../api/pcns.ts';
import { keeperInputOf, keeperVehicle } from '../components/keeper-vehicle.ts';
import { reviewHref } from '../manage-pcns/review-href.ts';
import './keeper-notices.css';

type Outcome = 'MATCHES' | 'DOES_NOT_MATCH' | 'SKIPPED';
type Decision = { pcn: PcnListItem; outcome: Outcome };

/**
 * The DVLA's vehicle checked against the plate photo without leaving the queue: one charge at a
 * time, 'Matches' or 'Does not match', then the next. The answer goes as the review sends it
 * (PUT /pcns/{id}/keeper with the keeper as recorded), so a confirmation here is the same record;
 * 'Does not match' is recorded too, and the charge leaves this queue with its keeper so marked.
 */
export function VehiclesToConfirm({ rows, onDecided }: { rows: readonly PcnListItem[] | undefined; onDecided: () => void }) {
  const [decisions, setDecisions] = useState<Decision[]>([]);
  // Each charge's detail (keeper and photos), asked once; the next one is asked while this one is looked at.
  const details = useRef(new Map<string, Promise<Pcn>>());
  const load = (id: string) => {
    let detail = details.current.get(id);
    if (!detail) {
      detail = getAdminPcn(id);
      details.current.set(id, detail);
      detail.catch(() => details.current.delete(id));
    }
    return detail;
  };
  const decidedIds = new Set(decisions.map((decision) => decision.pcn.id));
  const waiting = (rows ?? []).filter((row) => row.keeperState === 'UNCONFIRMED' && !decidedIds.has(row.id));
  if (waiting.length === 0 && decisions.length === 0) return null;
  const [current, next] = waiting;
  const total = decisions.length + waiting.length;
  return (
    <Card title="Vehicles to confirm" titleId="vehicle-checks-title">
      <div className="form-stack">
        <p className="muted card__intro">
          Check the DVLA's make and colour against the photos. No letter goes until the vehicle is confirmed. Each answer moves on to the
          next charge.
        </p>
        {current ? (
          <VehicleCheck
            key={current.id}
            pcn={current}
            position={decisions.length + 1}
            total={total}
            load={load}
            nextId={next?.id}
            // Only after an answer: on arriving at the screen, focus stays where the admin put it.
            takeFocus={decisions.length > 0}
            onDecided={(outcome) => {
              details.current.delete(current.id);
              setDecisions((previous) => [...previous, { pcn: current, outcome }]);
              onDecided();
            }}
          />
        ) : (
          <AllChecked count={decisions.length} />
        )}
        {decisions.length > 0 ? <DecisionList decisions={decisions} /> : null}
      </div>
    </Card>
  );
}

function VehicleCheck({
  pcn,
  position,
  total,
  load,
  nextId,
  takeFocus,
  onDecided,
}: {
  pcn: PcnListItem;
  position: number;
  total: number;
  load: (id: string) => Promise<Pcn>;
  nextId: string | undefined;
  takeFocus: boolean;
  onDecided: (outcome: Outcome) => void;
}) {
  const detail = useAsync(() => load(pcn.id), [pcn.id], ERROR_MESSAGES.fetchPcn);
  const [isSaving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, [takeFocus]);
  useEffect(() => {
    if (nextId) void load(nextId).catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextId]);

  const title = pcnTitle(pcn.pcnNumber);
  const headingId = `vehicle-check-${pcn.id}`;
  const keeper = detail.data?.keeper ?? null;
  const decide = async (matches: boolean) => {
    if (!keeper) return;
    setSaving(true);
    setError(null);
    try {
      await saveKeeper(pcn.id, keeperInputOf(keeper, matches ? 'MATCHES' : 'DOES_NOT_MATCH'));
      onDecided(matches ? 'MATCHES' : 'DOES_NOT_MATCH');
    } catch (failure) {
      setError(toApiError(failure, KEEPER_SAVE_FAILED).message);
      setSaving(false);
    }
  };
  return (
    <section className="vehicle-check" aria-labelledby={headingId}>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="vehicle-check__title">
        Vehicle {position} of {total}: {title}
      </h3>
      {detail.error ? <Alert>{detail.error.message}</Alert> : null}
      {!detail.data ? (
        detail.isLoading ? (
          <Spinner />
        ) : null
      ) : (
        <>
          <div className="vehicle-check__sides">
            <PlatePhotos pcn={detail.data} title={title} />
            <div className="vehicle-check__dvla">
              <p className="muted">The DVLA's vehicle, from the keeper reply</p>
              <dl>
                <div>
                  <dt>Registration</dt>
                  <dd className="vehicle-check__plate">{pcn.vehicleRegistration}</dd>
                </div>
                <div>
                  <dt>Make</dt>
                  <dd>{keeper?.make || 'Not given'}</dd>
                </div>
                <div>
                  <dt>Model</dt>
                  <dd>{keeper?.model || 'Not given'}</dd>
                </div>
                <div>
                  <dt>Colour</dt>
                  <dd>{keeper?.colour || 'Not given'}</dd>
                </div>
              </dl>
            </div>
          </div>
          {error ? <Alert>{error}</Alert> : null}
          {keeper && !keeper.vehicleConfirmedAt && !keeper.vehicleMismatchAt ? (
            <div className="button-row">
              <Button onPress={() => void decide(true)} isDisabled={isSaving} aria-describedby={headingId}>
                Matches
              </Button>
              <Button variant="secondary" onPress={() => void decide(false)} isDisabled={isSaving} aria-describedby={headingId}>
                Does not match
              </Button>
            </div>
          ) : (
            // Answered, or the keeper removed, since the queue was read: nothing to answer here.
            <div className="button-row">
              <p className="muted">
                {!keeper
                  ? 'No keeper is recorded any more.'
                  : keeper.vehicleMismatchAt
                    ? 'Already answered: it does not match the photos.'
                    : `Already confirmed as a ${keeperVehicle(keeper) || 'matching vehicle'}.`}
              </p>
              <Button variant="secondary" onPress={() => onDecided('SKIPPED')}>
                Next vehicle
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The photo the officer marked as the number plate; where none is marked, every photo, said so. */
function PlatePhotos({ pcn, title }: { pcn: Pcn; title: string }) {
  const marked = pcn.images.filter((image) => image.shots?.includes('number-plate'));
  const shown = marked.length > 0 ? marked : pcn.images;
  const kept = shown.filter((image): image is PcnImage & { url: string } => image.url !== null);
  return (
    <div className="vehicle-check__photos">
      {marked.length === 0 ? <p className="muted">No photo is marked as the number plate: these are all the photos.</p> : null}
      {kept.length === 0 ? (
        <p className="muted">{pcn.images.length === 0 ? 'No photos.' : 'The photos were removed under the retention policy.'}</p>
      ) : (
        <ul className="vehicle-check__photo-list">
          {kept.map((image) => {
            const name = marked.length > 0 ? 'Number plate photo' : `Photo ${pcn.images.indexOf(image) + 1}`;
            return (
              <li key={image.id}>
                <a
                  href={image.url}
                  target="_blank"
                  rel="noreferrer"
                  aria-label={`Open the ${name.toLowerCase()} of ${title} full size in a new tab`}
                >
                  <img src={image.thumbnailUrl ?? image.url} alt={`${name} of ${title}`} />
                </a>
                <span className="muted">{name}</span>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function AllChecked({ count }: { count: number }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <p ref={ref} tabIndex={-1} role="status" className="vehicle-check__done">
      {count === 1 ? 'The vehicle is checked.' : `All ${count} vehicles are checked.`}
    </p>
  );
}

const OUTCOME_TEXTS: Record<Outcome, string> = {
  MATCHES: 'Matches: keeper ready',
  DOES_NOT_MATCH: 'Does not match: no letter goes. Open the review to correct the registration or the keeper',
  SKIPPED: 'Nothing to confirm',
};

function DecisionList({ decisions }: { decisions: readonly Decision[] }) {
  const matched = decisions.filter((decision) => decision.outcome === 'MATCHES').length;
  const refused = decisions.filter((decision) => decision.outcome === 'DOES_NOT_MATCH').length;
  return (
    <div className="form-stack">
      <p>
        {matched} confirmed, {refused} {refused === 1 ? 'does' : 'do'} not match.
      </p>
      <ul aria-label="Vehicles checked" className="vehicle-check__decisions">
        {decisions.map(({ pcn, outcome }) => (
          <li key={pcn.id}>
            <Link href={reviewHref(pcn.id)} className="text-link">
              {pcnTitle(pcn.pcnNumber)}
            </Link>{' '}
            ({pcn.vehicleRegistration}): {OUTCOME_TEXTS[outcome]}
          </li>
        ))}
      </ul>
    </div>
  );
}
