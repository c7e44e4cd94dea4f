import { useEffect, useRef } from 'react';
import { FileDown } from 'lucide-react';
import {
  APPEAL_STATUS_LABELS,
  APPEALS_CHARTER,
  formatCalendarDate,
  formatPence,
  type Appeal,
  type AppealDecision,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { DownloadButton } from '../../../lib/download-button.tsx';
import { APPEAL_LETTER_FAILED, getAppealLetter } from '../api/appeals.ts';

/** A decided appeal: the outcome, when and by whom, the reasons and what follows from them, and the letter. */
export function DecisionRecord({ appeal, decision, isJustDecided }: { appeal: Appeal; decision: AppealDecision; isJustDecided: boolean }) {
  const record = useRef<HTMLDivElement>(null);
  // The form the admin was in has gone: the focus moves to what took its place, so it is not lost.
  useEffect(() => {
    if (isJustDecided) record.current?.focus();
  }, [isJustDecided]);
  return (
    <div className="form-stack appeal-decision" ref={record} tabIndex={-1}>
      {isJustDecided ? (
        <Alert tone="success">
          {appeal.appellant.email
            ? 'Decision recorded. The motorist is emailed the letter.'
            : 'Decision recorded. There is no email address: download the letter and post it.'}
        </Alert>
      ) : null}
      <dl className="details">
        <div>
          <dt>Outcome</dt>
          <dd>{APPEAL_STATUS_LABELS[decision.outcome]}</dd>
        </div>
        <div>
          <dt>Decided</dt>
          <dd>
            {formatDateTime(decision.decidedAt)}
            {decision.decidedBy ? ` by ${decision.decidedBy}` : ''}
          </dd>
        </div>
        {decision.reducedChargePence !== null ? (
          <div>
            <dt>Reduced amount</dt>
            <dd>{formatPence(decision.reducedChargePence)}</dd>
          </div>
        ) : null}
        {decision.reducedPayableUntil ? (
          <div>
            <dt>Reduced amount payable until</dt>
            <dd>{formatCalendarDate(decision.reducedPayableUntil)}</dd>
          </div>
        ) : null}
        {decision.charterOutcome ? (
          <div className="details__wide">
            <dt>Appeals Charter</dt>
            <dd>{APPEALS_CHARTER[decision.charterOutcome].label}</dd>
          </div>
        ) : null}
        {decision.verificationCode ? (
          <div>
            <dt>Verification code</dt>
            <dd>
              <code className="hash appeal-decision__code">{decision.verificationCode}</code>
            </dd>
          </div>
        ) : null}
        {decision.reducedHeldUntil ? (
          <div>
            <dt>Reduced rate held until</dt>
            <dd>{formatCalendarDate(decision.reducedHeldUntil)}</dd>
          </div>
        ) : null}
        {decision.appealsServiceUntil ? (
          <div>
            <dt>Independent appeal by</dt>
            <dd>{formatCalendarDate(decision.appealsServiceUntil)}</dd>
          </div>
        ) : null}
        <div className="details__wide">
          <dt>Reasons</dt>
          <dd className="details__text">{decision.reasons || 'None given'}</dd>
        </div>
      </dl>
      <LetterButton appeal={appeal} />
    </div>
  );
}

/** 'Download decision letter': the PDF the motorist was sent, saved as a file. */
function LetterButton({ appeal }: { appeal: Appeal }) {
  return (
    <DownloadButton
      className="button-row"
      load={() => getAppealLetter(appeal.id)}
      fileName={`appeal-${appeal.reference}-decision.pdf`}
      label="Download decision letter"
      busyLabel="Preparing letter…"
      doneText="Letter downloaded."
      failedMessage={APPEAL_LETTER_FAILED}
      icon={<FileDown aria-hidden="true" size={18} />}
    />
  );
}
