import { useState } from 'react';
import { Link } from 'react-aria-components';
import {
  APPEAL_CHANNEL_LABELS,
  APPEAL_REASON_LABELS,
  APPEAL_SORT_KEYS,
  APPEAL_STATUS_LABELS,
  APPEAL_STATUSES,
  appealExportFileName,
  DEFAULT_LIMIT,
  DEFAULT_SORTS,
  SCREEN_TEXTS,
  type AppealListItem,
  type AppealStatus,
} from '@parkpatrol/shared';
import { formatDate } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { APPEALS_EXPORT_FAILED, APPEALS_FETCH_FAILED, exportAppealsCsv, getAppeals, type AppealQuery } from '../api/appeals.ts';
import { AdminFilters } from '../components/admin-filters.tsx';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { ExportButton } from '../components/export-button.tsx';
import { useListParams, type ListParams } from '../components/use-list-params.ts';
import { appealHref } from './appeal-href.ts';
import { AppealStatusChip } from './appeal-status-chip.tsx';
import { RespondBy } from './respond-by.tsx';
import '../admin.css';

/**
 * The queue opens on the open appeals, so the URL names a status only when it is another one;
 * 'any' (not useListParams' ALL, which it never writes) is every status.
 */
const DEFAULT_STATUS: AppealStatus = 'OPEN';
const ANY_STATUS = 'any';
const STATUS_OPTIONS = [
  { id: ANY_STATUS, label: SCREEN_TEXTS.allStatuses },
  ...APPEAL_STATUSES.map((status) => ({ id: status, label: APPEAL_STATUS_LABELS[status] })),
];

type Sortable = (typeof APPEAL_SORT_KEYS)[number];

function statusOf(list: ListParams<Sortable>): AppealStatus | null {
  const value = list.get('status');
  if (value === ANY_STATUS) return null;
  return APPEAL_STATUSES.find((status) => status === value) ?? DEFAULT_STATUS;
}

/**
 * The appeals handler's queue (decision 0019): by default the open appeals, the one to answer
 * soonest first; filters, order and page live in the URL, and each appeal opens its own view.
 */
export function AppealsScreen() {
  const list = useListParams(APPEAL_SORT_KEYS, DEFAULT_SORTS.appeals);
  const [search, setSearch] = useState(list.get('search') ?? '');
  const debouncedSearch = useDebouncedValue(search, 300);
  const status = statusOf(list);
  const query: AppealQuery = { status, search: debouncedSearch, sort: list.sort.sort, order: list.sort.order };
  const appeals = useAsync(
    async () => ({ ...(await getAppeals({ ...query, page: list.page, limit: DEFAULT_LIMIT })), loadedAt: new Date() }),
    [list.page, JSON.stringify(query)],
    APPEALS_FETCH_FAILED,
  );
  const now = appeals.data?.loadedAt ?? new Date();

  const columns: Array<AdminColumn<AppealListItem>> = [
    {
      id: 'reference',
      label: 'Appeal',
      sortKey: 'reference',
      isRowHeader: true,
      isFigure: true,
      render: (appeal) => (
        <Link href={appealHref(appeal.id, list.params)} className="text-link">
          {appeal.reference}
        </Link>
      ),
    },
    { id: 'charge', label: 'Charge', isFigure: true, render: (appeal) => appeal.pcnNumber },
    {
      id: 'registration',
      label: 'Registration',
      sortKey: 'vehicleRegistration',
      isFigure: true,
      render: (appeal) => appeal.vehicleRegistration,
    },
    { id: 'carPark', label: 'Car park', render: (appeal) => appeal.carParkName },
    { id: 'appellant', label: 'Appellant', render: (appeal) => appeal.appellantName },
    { id: 'channel', label: 'Channel', render: (appeal) => APPEAL_CHANNEL_LABELS[appeal.channel] },
    { id: 'reason', label: 'Reason', render: (appeal) => APPEAL_REASON_LABELS[appeal.reason] },
    { id: 'received', label: 'Received', sortKey: 'receivedAt', isFigure: true, render: (appeal) => formatDate(appeal.receivedAt) },
    {
      id: 'respondBy',
      label: 'Respond by',
      sortKey: 'respondBy',
      render: (appeal) => <RespondBy respondBy={appeal.respondBy} status={appeal.status} now={now} />,
    },
    {
      id: 'status',
      label: 'Status',
      sortKey: 'status',
      render: (appeal) => <AppealStatusChip status={appeal.status} isLate={appeal.isLate} />,
    },
  ];

  const data = appeals.data;
  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{SCREEN_TEXTS.appeals}</PageHeading>
        <ExportButton
          load={() => exportAppealsCsv(query)}
          fileName={(now) => appealExportFileName(now, query)}
          failedMessage={APPEALS_EXPORT_FAILED}
        />
      </div>
      <AdminFilters
        label="Filter appeals"
        // The status is always a filter (Open unless another is chosen) until 'All Statuses'.
        activeCount={status === null ? 0 : 1}
        search={{
          value: search,
          placeholder: 'Reference, registration, name or verification code',
          onChange: (value) => {
            setSearch(value);
            list.update({ search: value });
          },
        }}
      >
        <SelectField
          label="Status"
          options={STATUS_OPTIONS}
          value={status ?? ANY_STATUS}
          onChange={(value) => list.update({ status: value === DEFAULT_STATUS ? null : value })}
        />
      </AdminFilters>
      <AdminTable
        label="Appeals"
        columns={columns}
        rows={data?.items}
        isLoading={appeals.isLoading}
        error={appeals.error}
        emptyText="No appeals"
        rowLabel={(appeal) => appeal.reference}
        sort={list.sort}
        onSort={list.setSort}
        pagination={data ? { page: data.page, limit: data.limit, total: data.total, pages: Math.ceil(data.total / data.limit) } : undefined}
        onPageChange={list.setPage}
        // The links carry the list's URL, and the time left is counted from the answer's arrival.
        dependencies={[list.params.toString(), data?.loadedAt]}
      />
    </div>
  );
}
