import { Link } from 'react-aria-components';
import { ERROR_MESSAGES, OFFENCE_TYPE_LABELS, type Appeal } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { Spinner } from '../../../lib/spinner.tsx';
import { StatusChip } from '../../../lib/status-chip.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { getAdminPcn } from '../api/pcns.ts';
import { EvidencePhotos } from '../manage-pcns/review-evidence.tsx';
import { reviewHref } from '../manage-pcns/review-href.ts';

/**
 * The charge appealed against, as the PCN review shows it: its facts and its photos (each
 * through its signed URL, with what it proves), so the motorist's words are read beside them.
 */
export function ChargeEvidence({ appeal }: { appeal: Appeal }) {
  // Reloaded with the appeal's status: an accepted appeal cancels the charge.
  const pcn = useAsync(() => getAdminPcn(appeal.pcnId), [appeal.pcnId, appeal.status], ERROR_MESSAGES.fetchPcn);
  return (
    <>
      <Card title="Charge" titleId="appeal-charge-title">
        <dl className="details">
          <div>
            <dt>Charge</dt>
            <dd>
              <Link href={reviewHref(appeal.pcnId)} className="text-link">
                {appeal.pcnNumber}
              </Link>
            </dd>
          </div>
          <div>
            <dt>Registration</dt>
            <dd>{appeal.vehicleRegistration}</dd>
          </div>
          <div>
            <dt>Car park</dt>
            <dd>{appeal.carParkName}</dd>
          </div>
          {pcn.data ? (
            <>
              <div>
                <dt>Status</dt>
                <dd>
                  <StatusChip status={pcn.data.status} />
                </dd>
              </div>
              <div>
                <dt>Offence</dt>
                <dd>{OFFENCE_TYPE_LABELS[pcn.data.offenceType] ?? pcn.data.offenceType}</dd>
              </div>
              <div>
                <dt>Issued</dt>
                <dd>{formatDateTime(pcn.data.issuedAt ?? pcn.data.createdAt)}</dd>
              </div>
              <div className="details__wide">
                <dt>Location</dt>
                <dd>{pcn.data.location}</dd>
              </div>
            </>
          ) : null}
        </dl>
      </Card>
      {pcn.data ? (
        <EvidencePhotos pcn={pcn.data} title={appeal.pcnNumber} />
      ) : pcn.isLoading ? (
        <Spinner />
      ) : pcn.error ? (
        <Alert>{pcn.error.message}</Alert>
      ) : null}
    </>
  );
}
