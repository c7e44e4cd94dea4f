import { useEffect, useRef, useState } from 'react';
import { FileDown } from 'lucide-react';
import { APPEAL_STATUS_LABELS, formatCalendarDate, formatPence, type Appeal, type AppealDecision } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { saveBlobAsFile } from '../../../lib/save-file.ts';
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
      {isJustDecided ? <Alert tone="success">Decision recorded. The motorist is emailed the letter.</Alert> : null}
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
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  async function download() {
    if (isBusy) return;
    setBusy(true);
    setError(null);
    setAnnouncement('');
    try {
      saveBlobAsFile(await getAppealLetter(appeal.id), `appeal-${appeal.reference}-decision.pdf`);
      setAnnouncement('Letter downloaded.');
    } catch (e) {
      setError(toApiError(e, APPEAL_LETTER_FAILED).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="button-row">
      <Button variant="secondary" onPress={() => void download()} isDisabled={isBusy} aria-busy={isBusy}>
        <FileDown aria-hidden="true" size={18} />
        {isBusy ? 'Preparing letter…' : 'Download decision letter'}
      </Button>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
