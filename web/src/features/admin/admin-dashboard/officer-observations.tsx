import { useState } from 'react';
import { ERROR_MESSAGES, MAX_LIMIT, type Observation, type ObservationStatus } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { SelectField } from '../../../lib/select-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { getObservations } from '../api/observations.ts';
import { getUsers } from '../api/users.ts';

const STATUS_LABELS: Record<ObservationStatus, string> = { OPEN: 'Open', GONE: 'Vehicle gone', ISSUED: 'Notice issued' };
const STATUS_OPTIONS = [{ id: 'ALL', label: 'All' }, ...Object.entries(STATUS_LABELS).map(([id, label]) => ({ id, label }))];
const COLUMNS = ['Officer', 'Vehicle Registration', 'Car Park', 'First seen', 'Second visit due', 'Status', 'Closed'] as const;

function officerName(observation: Observation): string {
  return observation.officer ? `${observation.officer.firstName} ${observation.officer.lastName}` : 'Account deleted';
}

/**
 * The stay rule's observations (docs/decisions/0012), per officer: which are open and when each
 * falls due, and which closed with the vehicle gone or a notice issued.
 */
export function OfficerObservations() {
  const [officerId, setOfficerId] = useState<string | null>(null);
  const [status, setStatus] = useState<string>('ALL');
  const officers = useAsync(() => getUsers({ limit: MAX_LIMIT, sort: 'name', order: 'asc' }), [], ERROR_MESSAGES.fetchUsers);
  const observations = useAsync(
    () => getObservations({ officerId, status: status === 'ALL' ? null : (status as ObservationStatus) }),
    [officerId, status],
    ERROR_MESSAGES.fetchObservations,
  );
  const rows = observations.data?.observations ?? [];
  const total = observations.data?.pagination.total ?? 0;

  return (
    <Card title="Observations" titleId="admin-observations-title">
      <p className="muted card__intro">Stay checks officers have started: open ones wait for the officer's second visit.</p>
      <div className="filters">
        <SelectField
          label="Officer"
          options={[
            { id: '', label: 'All officers' },
            ...(officers.data?.users ?? []).map((user) => ({ id: user.id, label: `${user.firstName} ${user.lastName}` })),
          ]}
          value={officerId ?? ''}
          onChange={(value) => setOfficerId(value || null)}
        />
        <SelectField label="Status" options={STATUS_OPTIONS} value={status} onChange={(value) => setStatus(value ?? 'ALL')} />
      </div>
      {observations.error ? <Alert>{observations.error.message}</Alert> : null}
      {observations.isLoading && !observations.data ? <p role="status">Loading observations…</p> : null}
      {observations.data && rows.length === 0 ? <p className="table__empty">No observations match.</p> : null}
      {rows.length > 0 ? (
        <div className="admin-table-scroll">
          <table className="table table--cards" aria-labelledby="admin-observations-title">
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.officer?.id}:${row.id}`} data-observation-id={row.id}>
                  <th scope="row" role="rowheader" data-label={COLUMNS[0]}>
                    {officerName(row)}
                  </th>
                  <td role="cell" data-label={COLUMNS[1]}>
                    {row.vehicleRegistration}
                  </td>
                  <td role="cell" data-label={COLUMNS[2]}>
                    {row.carPark.name}
                  </td>
                  <td role="cell" data-label={COLUMNS[3]}>
                    {formatDateTime(row.observedAt)}
                  </td>
                  <td role="cell" data-label={COLUMNS[4]}>
                    {formatDateTime(row.dueAt)}
                  </td>
                  <td role="cell" data-label={COLUMNS[5]}>
                    {row.pcnNumber ? `${STATUS_LABELS[row.status]} (PCN-${row.pcnNumber})` : STATUS_LABELS[row.status]}
                  </td>
                  <td role="cell" data-label={COLUMNS[6]}>
                    {row.closedAt ? formatDateTime(row.closedAt) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {total > rows.length ? <p className="muted">{`Showing the ${rows.length} newest of ${total}.`}</p> : null}
    </Card>
  );
}
