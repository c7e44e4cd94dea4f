import {
  APPEALS_CHARTER,
  APPEAL_STATUS_LABELS,
  CHARTER_REDUCED_PENCE,
  charterCasesFor,
  formatPence,
  PCN_STATUS_LABELS,
  REDUCED_PAYABLE_DAYS,
  type Appeal,
  type CharterCase,
} from '@parkpatrol/shared';
import { Button } from '../../../lib/button.tsx';
import { formatDate } from '../../../lib/format-date.ts';

type Props = {
  appeal: Appeal;
  /** The case the admin is following, if any. */
  following: CharterCase | null;
  onFollow: (charterCase: CharterCase) => void;
};

/**
 * The Appeals Charter beside the decision (decision 0024): the cases the appeal's reason may fall
 * under and what each leads to, and the registration's earlier charges, since a reduction is
 * granted only the first time for the vehicle. Following a case fills in the decision; the admin
 * still checks the proof and writes the reasons.
 */
export function CharterPanel({ appeal, following, onFollow }: Props) {
  const cases = charterCasesFor(appeal.reason);
  const grantedBefore = (id: CharterCase) => appeal.earlierCharges.find((charge) => charge.appeal?.charterOutcome === id) ?? null;
  return (
    <section className="form-stack" aria-labelledby="charter-title">
      <h3 id="charter-title" className="appeal-words__title">
        Appeals Charter
      </h3>
      {cases.length === 0 ? (
        <p className="muted">The Appeals Charter has no case for this reason: decide it on its merits.</p>
      ) : (
        <ul className="charter-cases" aria-label="Appeals Charter cases for this reason">
          {cases.map((id) => {
            const rule = APPEALS_CHARTER[id];
            const before = rule.firstTimeOnly ? grantedBefore(id) : null;
            const outcome =
              rule.outcome === 'CANCEL'
                ? 'Cancel the charge'
                : `${formatPence(CHARTER_REDUCED_PENCE)} payable within ${REDUCED_PAYABLE_DAYS} days, the first time for the registration`;
            return (
              <li key={id}>
                <div>
                  <strong>{rule.label}</strong>
                  <div className="muted">{`Proof: ${rule.proof}. Outcome: ${outcome}.`}</div>
                  {before ? <div className="muted">{`Already granted for ${before.pcnNumber}: not again.`}</div> : null}
                </div>
                <Button
                  variant="secondary"
                  isDisabled={before !== null || following === id}
                  onPress={() => onFollow(id)}
                  aria-label={`Follow the Charter: ${rule.label}`}
                >
                  {following === id ? 'Following' : 'Follow'}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <h4 className="appeal-words__title">{`Earlier charges of ${appeal.vehicleRegistration}`}</h4>
      {appeal.earlierCharges.length === 0 ? (
        <p className="muted">None: this is the first charge for this registration.</p>
      ) : (
        <ul className="charter-cases" aria-label={`Earlier charges of ${appeal.vehicleRegistration}`}>
          {appeal.earlierCharges.map((charge) => (
            <li key={charge.pcnId}>
              <span>
                {`${charge.pcnNumber}, ${charge.issuedAt ? formatDate(charge.issuedAt) : 'not issued'}, ${charge.carParkName}: ${charge.contravention} (${PCN_STATUS_LABELS[charge.status]})`}
              </span>
              <span className="muted">
                {charge.appeal
                  ? `Appeal ${charge.appeal.reference}: ${APPEAL_STATUS_LABELS[charge.appeal.status]}${charge.appeal.charterOutcome ? `, under the Charter (${APPEALS_CHARTER[charge.appeal.charterOutcome].label})` : ''}`
                  : 'No appeal'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
