import { useState } from 'react';
import { CANCELLATION_MESSAGES, CANCELLATION_REQUEST_STATUS_LABELS, type CancellationRequest, type Pcn } from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { TextField } from '../../../lib/text-field.tsx';
import { CANCELLATION_DECISION_FAILED, decideCancellationRequest } from '../api/cancellation-requests.ts';

/**
 * The landowners' requests to cancel this charge (decision 0042): the one waiting is approved
 * (the charge is cancelled, reason Landowner request) or declined, with a reason the landowner
 * reads; the decided ones stay listed with theirs.
 */
export function CancellationRequestsCard({ pcn, onChanged }: { pcn: Pcn; onChanged: (pcn: Pcn) => void }) {
  const requests = pcn.cancellationRequests ?? [];
  if (requests.length === 0) return null;
  const pending = requests.find((request) => request.status === 'PENDING');
  return (
    <Card title="Cancellation requests" titleId="review-cancellation-requests-title">
      {pending ? <PendingRequest key={pending.id} pcn={pcn} request={pending} onChanged={onChanged} /> : null}
      <ol className="history">
        {requests
          .filter((request) => request !== pending)
          .map((request) => (
            <li key={request.id} className="history__item">
              <strong>{CANCELLATION_REQUEST_STATUS_LABELS[request.status]}</strong>
              <span className="muted">
                Asked {formatDateTime(request.createdAt)} by {request.requestedByName}
                {request.decidedByName ? `; decided ${formatDateTime(request.decidedAt)} by ${request.decidedByName}` : ''}
              </span>
              <span className="history__note">{request.reason}</span>
              {request.decisionReason ? <span className="history__note">Decision: {request.decisionReason}</span> : null}
            </li>
          ))}
      </ol>
    </Card>
  );
}

function PendingRequest({ pcn, request, onChanged }: { pcn: Pcn; request: CancellationRequest; onChanged: (pcn: Pcn) => void }) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'APPROVED' | 'DECLINED' | null>(null);

  async function decide(decision: 'APPROVED' | 'DECLINED') {
    if (!reason.trim()) {
      setReasonError(CANCELLATION_MESSAGES.decisionReasonRequired);
      return;
    }
    setBusy(decision);
    setError(null);
    try {
      onChanged(await decideCancellationRequest(pcn.id, request.id, { decision, reason: reason.trim() }));
    } catch (e) {
      const failure = toApiError(e, CANCELLATION_DECISION_FAILED);
      if (failure.fields.reason) setReasonError(failure.fields.reason);
      else setError(failure.message);
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="form-stack">
      <p>
        <strong>{request.requestedByName}</strong> asked on {formatDateTime(request.createdAt)} that this charge be cancelled:
      </p>
      <blockquote className="history__note">{request.reason}</blockquote>
      {error ? <Alert>{error}</Alert> : null}
      <TextField
        label="Reason for your decision"
        description="The landowner sees it. Approving cancels the charge (reason: Landowner request)."
        isMultiline
        rows={2}
        value={reason}
        onChange={(value) => {
          setReason(value);
          setReasonError(null);
        }}
        errorMessage={reasonError}
        isRequired
        isDisabled={busy !== null}
      />
      <div className="button-row">
        <Button onPress={() => void decide('APPROVED')} isDisabled={busy !== null}>
          {busy === 'APPROVED' ? 'Approving…' : 'Approve and cancel the charge'}
        </Button>
        <Button variant="secondary" onPress={() => void decide('DECLINED')} isDisabled={busy !== null}>
          {busy === 'DECLINED' ? 'Declining…' : 'Decline'}
        </Button>
      </div>
    </div>
  );
}
