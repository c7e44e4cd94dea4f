import { useState } from 'react';
import {
  cancellationReasonLabel,
  CANCELLATION_MESSAGES,
  CANCELLATION_REQUEST_STATUS_LABELS,
  LANDOWNER_TEXTS,
  OFFENCE_TYPE_LABELS,
  PCN_STATUS_LABELS,
  pcnTitle,
  type LandownerCharge,
} from '@parkpatrol/shared';
import { Alert } from '../../lib/alert.tsx';
import { toApiError } from '../../lib/api-client.ts';
import { Button } from '../../lib/button.tsx';
import { ModalDialog } from '../../lib/dialog.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { Spinner } from '../../lib/spinner.tsx';
import { StatusChip } from '../../lib/status-chip.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { useAsync } from '../../lib/use-async.ts';
import { getCarParkCharges, LANDOWNER_FAILED, requestCancellation } from './landowner-api.ts';

/** Statuses a charge can still be cancelled from. */
const OPEN_STATUSES = new Set(['SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'ISSUED']);

/**
 * The charges issued at a landowner's car park (decision 0042), newest first: what happened and
 * where each stands, never who the motorist is; 'Request cancellation' asks the operator, with
 * a reason, and the answer shows on the charge.
 */
export function ChargesPanel({ carParkId }: { carParkId: string }) {
  const [page, setPage] = useState(1);
  const charges = useAsync(() => getCarParkCharges(carParkId, page), [carParkId, page], LANDOWNER_FAILED.charges);
  const [asking, setAsking] = useState<LandownerCharge | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const data = charges.data;
  return (
    <div className="form-stack">
      <p role="status" className={notice ? 'notice notice--success' : 'visually-hidden'}>
        {notice}
      </p>
      {charges.error ? <Alert>{charges.error.message}</Alert> : null}
      {!data && charges.isLoading ? <Spinner /> : null}
      {data && data.charges.length === 0 ? <p className="muted">{LANDOWNER_TEXTS.noCharges}</p> : null}
      {data && data.charges.length > 0 ? (
        <ul className="landowner-charges" aria-label="Charges">
          {data.charges.map((charge) => (
            <li key={charge.id} className="landowner-charge card" data-pcn={charge.pcnNumber}>
              <div className="landowner-charge__head">
                <strong>{pcnTitle(charge.pcnNumber)}</strong>
                <StatusChip status={charge.status} />
              </div>
              <dl className="details">
                <div>
                  <dt>Registration</dt>
                  <dd>{charge.vehicleRegistration}</dd>
                </div>
                <div>
                  <dt>Issued</dt>
                  <dd>{formatDateTime(charge.issuedAt)}</dd>
                </div>
                <div>
                  <dt>Offence</dt>
                  <dd>{OFFENCE_TYPE_LABELS[charge.offenceType as keyof typeof OFFENCE_TYPE_LABELS] ?? charge.offenceType}</dd>
                </div>
                {charge.location ? (
                  <div>
                    <dt>Location</dt>
                    <dd>{charge.location}</dd>
                  </div>
                ) : null}
                {charge.status === 'CANCELLED' ? (
                  <div>
                    <dt>Cancelled because</dt>
                    <dd>{cancellationReasonLabel(charge.cancellationReason)}</dd>
                  </div>
                ) : null}
                {charge.appealStatus ? (
                  <div>
                    <dt>Appeal</dt>
                    <dd>
                      {charge.appealStatus === 'OPEN'
                        ? 'Awaiting a decision'
                        : charge.appealStatus === 'WITHDRAWN'
                          ? 'Withdrawn'
                          : 'Decided'}
                    </dd>
                  </div>
                ) : null}
                {charge.cancellationRequest ? (
                  <div className="details__wide">
                    <dt>Your request</dt>
                    <dd>
                      {CANCELLATION_REQUEST_STATUS_LABELS[charge.cancellationRequest.status]}
                      {charge.cancellationRequest.decisionReason ? `: ${charge.cancellationRequest.decisionReason}` : ''}
                    </dd>
                  </div>
                ) : null}
              </dl>
              {OPEN_STATUSES.has(charge.status) && charge.cancellationRequest?.status !== 'PENDING' ? (
                <Button
                  variant="secondary"
                  onPress={() => setAsking(charge)}
                  aria-label={`${LANDOWNER_TEXTS.requestCancellation} of ${pcnTitle(charge.pcnNumber)}`}
                >
                  {LANDOWNER_TEXTS.requestCancellation}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {data && data.pagination.pages > 1 ? (
        <div className="button-row">
          <Button variant="secondary" isDisabled={page <= 1} onPress={() => setPage(page - 1)}>
            Newer
          </Button>
          <span className="muted">
            Page {page} of {data.pagination.pages}
          </span>
          <Button variant="secondary" isDisabled={page >= data.pagination.pages} onPress={() => setPage(page + 1)}>
            Older
          </Button>
        </div>
      ) : null}
      {asking ? (
        <RequestCancellationDialog
          charge={asking}
          onClose={() => setAsking(null)}
          onSent={() => {
            setAsking(null);
            setNotice(`${LANDOWNER_TEXTS.requestSent} (${pcnTitle(asking.pcnNumber)}).`);
            charges.reload();
          }}
        />
      ) : null}
    </div>
  );
}

function RequestCancellationDialog({ charge, onClose, onSent }: { charge: LandownerCharge; onClose: () => void; onSent: () => void }) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  async function send() {
    if (!reason.trim()) {
      setReasonError(CANCELLATION_MESSAGES.requestReasonRequired);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await requestCancellation(charge.id, reason.trim());
      onSent();
    } catch (e) {
      const failure = toApiError(e, LANDOWNER_FAILED.request);
      if (failure.fields.reason) setReasonError(failure.fields.reason);
      else setError(failure.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalDialog title={`${LANDOWNER_TEXTS.requestCancellation}: ${pcnTitle(charge.pcnNumber)}`} isOpen onClose={onClose} isBusy={isBusy}>
      <form
        className="form-stack"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <p className="muted">
          {charge.vehicleRegistration}, {PCN_STATUS_LABELS[charge.status]}. The operator decides and tells you why here.
        </p>
        {error ? <Alert>{error}</Alert> : null}
        <TextField
          label={LANDOWNER_TEXTS.requestReasonLabel}
          isMultiline
          rows={3}
          value={reason}
          onChange={(value) => {
            setReason(value);
            setReasonError(null);
          }}
          errorMessage={reasonError}
          isRequired
          isDisabled={isBusy}
        />
        <div className="button-row">
          <Button type="submit" isDisabled={isBusy}>
            {isBusy ? 'Sending…' : 'Send request'}
          </Button>
          <Button variant="secondary" onPress={onClose} isDisabled={isBusy}>
            Cancel
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
