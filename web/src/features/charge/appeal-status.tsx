import { useEffect, useRef, useState } from 'react';
import { APPEAL_STATUS_LABELS, formatCalendarDate, formatPence, formatUkDateTime, type PublicCharge } from '@parkpatrol/shared';
import { DownloadButton } from '../../lib/download-button.tsx';
import { wholeReferences } from '../../lib/whole-references.tsx';
import { AppealWithdrawal } from './appeal-withdrawal.tsx';
import { downloadDecisionLetter, LETTER_DOWNLOAD_FAILED } from './charge-api.ts';

/**
 * Where the motorist's appeal stands: received and on hold (and withdrawable), withdrawn, or
 * decided with the reasons and the letter.
 */
export function AppealStatus({
  charge,
  accessToken,
  onReload,
}: {
  charge: PublicCharge;
  accessToken: string;
  /** Reads the charge again (after the appeal is withdrawn). */
  onReload: () => Promise<void>;
}) {
  const appeal = charge.appeal!;
  const [isJustWithdrawn, setJustWithdrawn] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // The withdrawal step is gone once the appeal is withdrawn: the focus goes to where the appeal now stands.
  useEffect(() => {
    if (isJustWithdrawn) titleRef.current?.focus();
  }, [isJustWithdrawn]);
  return (
    <section className="appeal-status" aria-labelledby="appeal-status-title">
      <h2 id="appeal-status-title" ref={titleRef} tabIndex={-1}>
        Your appeal
      </h2>
      <dl className="details">
        <div>
          <dt>Appeal reference</dt>
          <dd>{wholeReferences(appeal.reference)}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>{formatUkDateTime(appeal.receivedAt)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{APPEAL_STATUS_LABELS[appeal.status]}</dd>
        </div>
        {appeal.withdrawnAt ? (
          <div>
            <dt>Withdrawn</dt>
            <dd>{formatUkDateTime(appeal.withdrawnAt)}</dd>
          </div>
        ) : null}
        {appeal.decidedAt ? (
          <div>
            <dt>Decided</dt>
            <dd>{formatUkDateTime(appeal.decidedAt)}</dd>
          </div>
        ) : null}
      </dl>
      {appeal.status === 'OPEN' && charge.onHold ? (
        <p>
          We are considering your appeal. The charge is on hold: the amount due stays as it was the day{' '}
          {appeal.isLate ? 'we agreed to consider it' : 'your appeal arrived'}.
        </p>
      ) : null}
      {appeal.status === 'OPEN' && !charge.onHold ? (
        <p>
          Your appeal came after the time to appeal had ended, so the charge is not on hold. We will tell you whether we will consider it.
        </p>
      ) : null}
      {appeal.status === 'OPEN' ? (
        <AppealWithdrawal
          charge={charge}
          accessToken={accessToken}
          onWithdrawn={async () => {
            await onReload();
            setJustWithdrawn(true);
          }}
        />
      ) : null}
      {appeal.status === 'WITHDRAWN' ? (
        <p role={isJustWithdrawn ? 'status' : undefined}>
          You withdrew your appeal, so we will not decide it. The charge is no longer on hold: it is payable as this page shows.
        </p>
      ) : null}
      {appeal.status === 'DECLINED_LATE' ? (
        <p>Your appeal came after the time to appeal had ended, and we decided not to consider it. The charge stands.</p>
      ) : null}
      {appeal.status === 'ACCEPTED' ? <p>Your appeal was accepted and the charge cancelled.</p> : null}
      {appeal.status === 'ACCEPTED_REDUCED' && appeal.reducedChargePence !== null ? (
        <p>
          Your appeal was accepted in part: the charge is now {formatPence(appeal.reducedChargePence)}
          {appeal.reducedPayableUntil
            ? ` if it is paid by ${formatCalendarDate(appeal.reducedPayableUntil)}. After that day the full charge is due`
            : ''}
          .
        </p>
      ) : null}
      {appeal.reasons ? (
        <>
          <h3>Our reasons</h3>
          <p className="charge-text">{appeal.reasons}</p>
        </>
      ) : null}
      {(appeal.status === 'REJECTED' || appeal.status === 'ACCEPTED_REDUCED') && charge.appealsService ? (
        <>
          <h3>Your right to an independent appeal</h3>
          <p>
            You may appeal to {charge.appealsService.name}
            {appeal.appealsServiceUntil ? ` by ${formatCalendarDate(appeal.appealsServiceUntil)}` : ''}.
          </p>
          {appeal.verificationCode ? (
            <p>
              Your verification code: <strong className="appeal-status__code">{appeal.verificationCode}</strong>
            </p>
          ) : null}
          <p className="charge-text">{charge.appealsService.contact}</p>
        </>
      ) : null}
      {appeal.decidedAt ? (
        <DownloadButton
          load={() => downloadDecisionLetter(accessToken)}
          fileName={`appeal-${appeal.reference}-decision.pdf`}
          label="Download the decision letter"
          busyLabel="Downloading…"
          doneText="Letter downloaded."
          failedMessage={LETTER_DOWNLOAD_FAILED}
        />
      ) : null}
    </section>
  );
}
