import { useState } from 'react';
import { Link } from 'react-aria-components';
import { useNavigate } from 'react-router-dom';
import { Copy } from 'lucide-react';
import {
  DEFAULT_LIMIT,
  DEFAULT_SORTS,
  describePostingWindow,
  ERROR_MESSAGES,
  NAV_LABELS,
  OFFENCE_TYPE_LABELS,
  PCN_SORT_KEYS,
  PCN_STATUS_LABELS,
  CANCELLATION_REASON_LABELS,
  CANCELLATION_REASONS,
  COLLECTION_STAGE_LABELS,
  COLLECTION_STAGES,
  PCN_STATUSES,
  type CancellationReason,
  type CollectionStage,
  pcnExportFileName,
  pcnTitle,
  SCREEN_TEXTS,
  type BulkResult,
  type PcnListItem,
  type PcnStatus,
} from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { StatusChip } from '../../../lib/status-chip.tsx';
import { DateField } from '../../../lib/date-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { getAllCarParks } from '../api/car-parks.ts';
import { exportPcnsCsv, getAdminPcns, getPcnSelection, PCN_EXPORT_FAILED, PCN_SELECTION_FAILED, type AdminPcnQuery } from '../api/pcns.ts';
import { AdminFilters } from '../components/admin-filters.tsx';
import { DateTimeLines } from '../components/date-time-lines.tsx';
import { AdminTable, type AdminColumn } from '../components/admin-table.tsx';
import { BulkResults } from '../components/bulk-results.tsx';
import { Checkbox } from '../components/checkbox.tsx';
import { DismissibleAlert, type Notice } from '../components/dismissible-alert.tsx';
import { ExportButton } from '../components/export-button.tsx';
import { KeeperDeadlineLeft } from '../components/keeper-deadline.tsx';
import { SelectionBar } from '../components/selection-bar.tsx';
import { ALL, useListParams, type ListParams } from '../components/use-list-params.ts';
import { useRowSelection } from '../components/use-row-selection.ts';
import { BulkStatusChange, BulkStatusUndo } from './bulk-status-change.tsx';
import { PcnReview } from './pcn-review.tsx';
import { REVIEW_PARAM } from './review-href.ts';
import { rememberListView, useRestoredListView } from './list-view-memory.ts';
import '../admin.css';

const STATUS_OPTIONS = [{ id: ALL, label: SCREEN_TEXTS.allStatuses }, ...PCN_STATUSES.map((s) => ({ id: s, label: PCN_STATUS_LABELS[s] }))];
const DEADLINE = 'deadline';
/** The deadline order lists only PCNs whose keeper notice can still go out (the API's rule), so it says so. */
const ORDER_OPTIONS = [
  { id: ALL, label: 'By column' },
  { id: DEADLINE, label: 'Keeper deadline (open PCNs)' },
];
const DUPLICATES = 'duplicates';
const FILTER_NAMES = [
  'status',
  'carParkId',
  'from',
  'to',
  'flagged',
  'collectionStage',
  'cancellationReason',
  'cancellationRequest',
] as const;
const PENDING = 'PENDING';
const CANCELLATION_REASON_OPTIONS = [
  { id: ALL, label: 'Any reason' },
  ...CANCELLATION_REASONS.map((reason) => ({ id: reason, label: CANCELLATION_REASON_LABELS[reason] })),
];
const isCancellationReason = (value: string | null): value is CancellationReason =>
  (CANCELLATION_REASONS as readonly string[]).includes(value ?? '');
const COLLECTION_STAGE_OPTIONS = [
  { id: ALL, label: 'Any stage' },
  ...COLLECTION_STAGES.map((stage) => ({ id: stage, label: COLLECTION_STAGE_LABELS[stage] })),
];
const isCollectionStage = (value: string | null): value is CollectionStage =>
  (COLLECTION_STAGES as readonly string[]).includes(value ?? '');

/**
 * All PCNs with filters, sortable by any column; the review view opens in place (?review=<id>)
 * with the list's filters and sort in its URL, so it can step through the same list and Back
 * returns to it.
 */
export function ManagePcnsScreen() {
  const list = useListParams(PCN_SORT_KEYS, DEFAULT_SORTS.pcns);
  const reviewId = list.get(REVIEW_PARAM);
  const query = listQuery(list);
  if (reviewId) return <PcnReview key={reviewId} pcnId={reviewId} query={query} listParams={list.params} />;
  return <PcnList list={list} query={query} />;
}

/** The list's filters and sort as the API reads them (the list, its export, selection and the review's neighbours). */
function listQuery(list: ListParams<(typeof PCN_SORT_KEYS)[number]>): AdminPcnQuery {
  return {
    status: (list.get('status') as PcnStatus | null) ?? null,
    carParkId: list.get('carParkId'),
    from: list.get('from') ?? '',
    to: list.get('to') ?? '',
    search: list.get('search') ?? '',
    sort: list.sort.sort,
    order: list.sort.order,
    flagged: list.get('flagged') === DUPLICATES ? DUPLICATES : null,
    collectionStage: isCollectionStage(list.get('collectionStage')) ? (list.get('collectionStage') as CollectionStage) : null,
    cancellationReason: isCancellationReason(list.get('cancellationReason'))
      ? (list.get('cancellationReason') as CancellationReason)
      : null,
    cancellationRequest: list.get('cancellationRequest') === PENDING ? PENDING : null,
  };
}

function PcnList({ list, query }: { list: ListParams<(typeof PCN_SORT_KEYS)[number]>; query: AdminPcnQuery }) {
  const navigate = useNavigate();
  const [search, setSearch] = useState(query.search ?? '');
  const debouncedSearch = useDebouncedValue(search, 300);
  const apiQuery = { ...query, search: debouncedSearch };
  const carParks = useAsync(getAllCarParks, [], ERROR_MESSAGES.fetchCarParks);
  const pcns = useAsync(
    async () => ({ ...(await getAdminPcns({ page: list.page, limit: DEFAULT_LIMIT, ...apiQuery })), loadedAt: new Date() }),
    [list.page, JSON.stringify(apiQuery)],
    ERROR_MESSAGES.fetchPcns,
  );
  const rows = pcns.data?.pcns;
  const selection = useRowSelection<{ status: PcnStatus }>(rows ?? [], (pcn) => ({ status: pcn.status }));
  const [notice, setNotice] = useState<Notice | null>(null);
  /** The last bulk change's results, with the status it moved them to while it can still be undone (null once undone). */
  const [results, setResults] = useState<{ items: BulkResult[]; undoable: PcnStatus | null } | null>(null);
  useRestoredListView(rows !== undefined);

  /** A new filter is a new set of rows: what was selected from the old one is let go. */
  function filter(changes: Record<string, string | null>) {
    selection.clear();
    list.update(changes);
  }

  /** The review link carries the list's URL, so the review steps through this list and Back returns to it. */
  function reviewLink(pcnId: string): string {
    const next = new URLSearchParams(list.params);
    next.set(REVIEW_PARAM, pcnId);
    return `${paths.admin.pcns}?${next.toString()}`;
  }

  const isDeadline = query.sort === DEADLINE;
  const columns: Array<AdminColumn<PcnListItem>> = [
    {
      id: 'number',
      label: 'PCN Number',
      sortKey: 'pcnNumber',
      isRowHeader: true,
      isFigure: true,
      render: (pcn) => pcnTitle(pcn.pcnNumber),
    },
    {
      id: 'plate',
      label: 'Registration',
      sortKey: 'vehicleRegistration',
      isFigure: true,
      render: (pcn) => pcn.vehicleRegistration,
    },
    { id: 'carPark', label: 'Car Park', sortKey: 'carPark', render: (pcn) => pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark },
    {
      id: 'offence',
      label: 'Offence',
      sortKey: 'offenceType',
      render: (pcn) => OFFENCE_TYPE_LABELS[pcn.offenceType] ?? pcn.offenceType,
    },
    {
      id: 'officer',
      label: 'Officer',
      sortKey: 'officer',
      render: (pcn) => (pcn.createdBy ? `${pcn.createdBy.firstName} ${pcn.createdBy.lastName}` : '—'),
    },
    {
      id: 'status',
      label: 'Status',
      sortKey: 'status',
      render: (pcn) => (
        <span className="chip-stack">
          <StatusChip status={pcn.status} />
          {pcn.possibleDuplicates?.length ? (
            <span className="chip chip--info">
              <Copy aria-hidden="true" size={14} />
              Possible duplicate
            </span>
          ) : null}
        </span>
      ),
    },
    // The keeper-deadline queue shows its deadline where the others show when a notice came in.
    isDeadline
      ? {
          id: 'deadline',
          label: 'Keeper deadline',
          sortKey: DEADLINE,
          render: (pcn) => (
            <span className="chip-stack">
              {describePostingWindow(pcn.keeperNotice)}
              {pcn.keeperNoticeDueAt ? (
                <KeeperDeadlineLeft
                  dueAt={pcn.keeperNoticeDueAt}
                  isWarning={pcn.deadlineWarning ?? false}
                  now={pcns.data?.loadedAt ?? new Date()}
                />
              ) : null}
            </span>
          ),
        }
      : { id: 'submitted', label: 'Submitted', sortKey: 'created', render: (pcn) => <DateTimeLines iso={pcn.createdAt} /> },
    {
      id: 'review',
      label: 'Review',
      isActions: true,
      render: (pcn) => (
        <Link
          className="button button--secondary"
          href={reviewLink(pcn.id)}
          aria-label={`Review ${pcnTitle(pcn.pcnNumber)}`}
          data-review-id={pcn.id}
          onPress={() => rememberListView(pcn.id)}
        >
          Review
        </Link>
      ),
    },
  ];

  const carParkOptions = [{ id: ALL, label: 'All car parks' }, ...(carParks.data ?? []).map((p) => ({ id: p.id, label: p.name }))];
  const activeFilters = FILTER_NAMES.filter((name) => list.get(name)).length + (isDeadline ? 1 : 0);
  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{NAV_LABELS.managePcns}</PageHeading>
        <ExportButton
          load={() => exportPcnsCsv(apiQuery)}
          fileName={(now) =>
            pcnExportFileName(now, { ...apiQuery, carParkName: carParks.data?.find((carPark) => carPark.id === apiQuery.carParkId)?.name })
          }
          failedMessage={PCN_EXPORT_FAILED}
        />
      </div>
      <AdminFilters
        label="Filter PCNs"
        activeCount={activeFilters}
        search={{
          value: search,
          placeholder: SCREEN_TEXTS.searchPcns,
          onChange: (value) => {
            setSearch(value);
            filter({ search: value });
          },
        }}
      >
        <SelectField label="Status" options={STATUS_OPTIONS} value={query.status ?? ALL} onChange={(v) => filter({ status: v })} />
        <SelectField label="Car park" options={carParkOptions} value={query.carParkId ?? ALL} onChange={(v) => filter({ carParkId: v })} />
        <SelectField
          label="Collection stage"
          options={COLLECTION_STAGE_OPTIONS}
          value={query.collectionStage ?? ALL}
          onChange={(v) => filter({ collectionStage: v })}
        />
        <SelectField
          label="Cancellation reason"
          options={CANCELLATION_REASON_OPTIONS}
          value={query.cancellationReason ?? ALL}
          onChange={(v) => filter({ cancellationReason: v })}
        />
        <DateField label="From" value={query.from ?? ''} onChange={(v) => filter({ from: v })} />
        <DateField label="To" value={query.to ?? ''} onChange={(v) => filter({ to: v })} />
        <SelectField
          label="Order"
          options={ORDER_OPTIONS}
          value={isDeadline ? DEADLINE : ALL}
          onChange={(v) => filter(v === DEADLINE ? { sort: DEADLINE, order: null } : { sort: null, order: null })}
        />
        <Checkbox
          className="admin-filters__checkbox"
          isSelected={query.flagged !== null}
          onChange={(isSelected) => filter({ flagged: isSelected ? DUPLICATES : null })}
        >
          Possible duplicates
        </Checkbox>
        <Checkbox
          className="admin-filters__checkbox"
          isSelected={query.cancellationRequest === PENDING}
          onChange={(isSelected) => filter({ cancellationRequest: isSelected ? PENDING : null })}
        >
          Landowner asked to cancel
        </Checkbox>
      </AdminFilters>
      <DismissibleAlert notice={notice} onDismiss={() => setNotice(null)} />
      <SelectionBar
        selectedCount={selection.selected.size}
        total={pcns.data?.pagination.total ?? 0}
        noun={{ one: 'PCN', many: 'PCNs' }}
        failedMessage={PCN_SELECTION_FAILED}
        onSelectAllMatching={async () => selection.selectAll((await getPcnSelection(apiQuery)).items)}
        onClear={selection.clear}
      >
        <BulkStatusChange
          selected={selection.selected}
          onDone={(answer, summary, status) => {
            setResults({ items: answer, undoable: status });
            setNotice(summary);
            selection.clear();
            pcns.reload();
          }}
        />
      </SelectionBar>
      <AdminTable
        label="PCNs"
        columns={columns}
        rows={rows}
        isLoading={pcns.isLoading}
        error={pcns.error}
        emptyText={SCREEN_TEXTS.noPcnsFound}
        rowLabel={(pcn) => pcnTitle(pcn.pcnNumber)}
        sort={list.sort}
        onSort={list.setSort}
        selection={{
          keys: selection.pageKeys,
          onChange: selection.onSelectionChange,
          selectAllLabel: 'Select all PCNs on this page',
          rowLabel: (pcn) => pcnTitle(pcn.pcnNumber),
        }}
        pagination={pcns.data?.pagination}
        onPageChange={list.setPage}
        // The review links carry the URL, so rows are drawn again when it changes.
        dependencies={[list.params.toString(), pcns.data?.loadedAt]}
        onRowAction={(pcn) => {
          rememberListView(pcn.id);
          void navigate(reviewLink(pcn.id));
        }}
      />
      {results ? (
        <BulkResults
          title={results.undoable ? 'Status change results' : 'Undo results'}
          itemHeading="PCN"
          results={results.items}
          actions={
            results.undoable ? (
              <BulkStatusUndo
                status={results.undoable}
                results={results.items}
                onUndone={(answer, summary) => {
                  if (answer) setResults({ items: answer, undoable: null });
                  setNotice(summary);
                  pcns.reload();
                }}
              />
            ) : null
          }
        />
      ) : null}
    </div>
  );
}
