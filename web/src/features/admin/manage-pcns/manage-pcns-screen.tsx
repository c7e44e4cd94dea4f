import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Cell, Column, Input, Label, Link, Row, SearchField, Table, TableBody, TableHeader } from 'react-aria-components';
import { Copy, Search } from 'lucide-react';
import {
  DEFAULT_LIMIT,
  ERROR_MESSAGES,
  NAV_LABELS,
  OFFENCE_TYPE_LABELS,
  PCN_STATUS_LABELS,
  PCN_STATUSES,
  pcnExportFileName,
  pcnTitle,
  SCREEN_TEXTS,
  type PcnStatus,
} from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { ExportButton } from '../components/export-button.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { StatusChip } from '../../../lib/status-chip.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { getAllCarParks } from '../api/car-parks.ts';
import { exportPcnsCsv, getAdminPcns, PCN_EXPORT_FAILED } from '../api/pcns.ts';
import { Checkbox } from '../components/checkbox.tsx';
import { KeeperDeadlineLeft } from '../components/keeper-deadline.tsx';
import { PaginationBar } from '../components/pagination-bar.tsx';
import { PcnReview } from './pcn-review.tsx';
import { REVIEW_PARAM } from './review-href.ts';
import '../admin.css';

const ALL = 'all';
const STATUS_OPTIONS = [{ id: ALL, label: SCREEN_TEXTS.allStatuses }, ...PCN_STATUSES.map((s) => ({ id: s, label: PCN_STATUS_LABELS[s] }))];
const DEADLINE = 'deadline';
/** The deadline order lists only PCNs whose keeper notice can still go out (the API's rule), so it says so. */
const ORDER_OPTIONS = [
  { id: ALL, label: 'Newest first' },
  { id: DEADLINE, label: 'Keeper deadline (open PCNs)' },
];
const DUPLICATES = 'duplicates';

/**
 * All PCNs with filters; the review view opens in place (?review=<id>) so the browser's back
 * button returns to the list with the same filters, which live in the URL too.
 */
export function ManagePcnsScreen() {
  const [params, setParams] = useSearchParams();
  const reviewId = params.get(REVIEW_PARAM);
  if (reviewId) {
    const backParams = new URLSearchParams(params);
    backParams.delete(REVIEW_PARAM);
    const query = backParams.toString();
    return <PcnReview key={reviewId} pcnId={reviewId} backHref={`${paths.admin.pcns}${query ? `?${query}` : ''}`} />;
  }
  return <PcnList params={params} setParams={setParams} />;
}

function PcnList({ params, setParams }: { params: URLSearchParams; setParams: ReturnType<typeof useSearchParams>[1] }) {
  const status = (params.get('status') as PcnStatus | null) ?? null;
  const carParkId = params.get('carParkId');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const sort = params.get('sort') === DEADLINE ? DEADLINE : null;
  const flagged = params.get('flagged') === DUPLICATES ? DUPLICATES : null;
  const [search, setSearch] = useState(params.get('search') ?? '');
  const debouncedSearch = useDebouncedValue(search, 300);
  const carParks = useAsync(getAllCarParks, [], ERROR_MESSAGES.fetchCarParks);
  const list = useAsync(
    async () => ({
      ...(await getAdminPcns({ page, limit: DEFAULT_LIMIT, status, carParkId, from, to, search: debouncedSearch, sort, flagged })),
      loadedAt: new Date(),
    }),
    [page, status, carParkId, from, to, debouncedSearch, sort, flagged],
    ERROR_MESSAGES.fetchPcns,
  );

  function update(changes: Record<string, string | null>, resetPage = true) {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '' || value === ALL) next.delete(key);
          else next.set(key, value);
        }
        if (resetPage) next.delete('page');
        return next;
      },
      { replace: true },
    );
  }

  /** The review view keeps the list's filters in its URL, so Back returns to the same list. */
  function reviewLink(pcnId: string): string {
    const next = new URLSearchParams(params);
    next.set(REVIEW_PARAM, pcnId);
    return `${paths.admin.pcns}?${next.toString()}`;
  }

  const carParkOptions = [{ id: ALL, label: 'All car parks' }, ...(carParks.data ?? []).map((p) => ({ id: p.id, label: p.name }))];
  const data = list.data;
  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{NAV_LABELS.managePcns}</PageHeading>
        <ExportButton
          load={() => exportPcnsCsv({ status, carParkId, from, to, search: debouncedSearch, sort, flagged })}
          fileName={pcnExportFileName}
          failedMessage={PCN_EXPORT_FAILED}
        />
      </div>
      <div className="admin-filters" role="search" aria-label="Filter PCNs">
        <SearchField
          className="field admin-filters__search"
          value={search}
          onChange={(value) => {
            setSearch(value);
            update({ search: value });
          }}
        >
          <Label className="field__label">Search</Label>
          <div className="search-input">
            <Search aria-hidden="true" size={18} className="search-input__icon" />
            <Input className="field__input search-input__field" placeholder={SCREEN_TEXTS.searchPcns} />
          </div>
        </SearchField>
        <SelectField label="Status" options={STATUS_OPTIONS} value={status ?? ALL} onChange={(v) => update({ status: v })} />
        <SelectField label="Car park" options={carParkOptions} value={carParkId ?? ALL} onChange={(v) => update({ carParkId: v })} />
        <TextField label="From" type="date" value={from} onChange={(v) => update({ from: v })} />
        <TextField label="To" type="date" value={to} onChange={(v) => update({ to: v })} />
        <SelectField label="Order" options={ORDER_OPTIONS} value={sort ?? ALL} onChange={(v) => update({ sort: v })} />
        <Checkbox className="admin-filters__checkbox" isSelected={flagged !== null} onChange={(isSelected) => update({ flagged: isSelected ? DUPLICATES : null })}>
          Possible duplicates
        </Checkbox>
      </div>
      {list.error ? <Alert>{list.error.message}</Alert> : null}
      {!data && list.isLoading ? (
        <Spinner />
      ) : data ? (
        <>
          <div className="admin-table-scroll" aria-busy={list.isLoading}>
            <Table aria-label="PCNs" className="table">
              <TableHeader>
                <Column isRowHeader>PCN Number</Column>
                <Column>Vehicle Registration</Column>
                <Column>Car Park</Column>
                <Column>Offence Type</Column>
                <Column>Officer</Column>
                <Column>Status</Column>
                <Column>Submitted</Column>
                {sort === DEADLINE ? <Column>Keeper deadline</Column> : null}
                <Column>{'Review'}</Column>
              </TableHeader>
              {/* react-aria keeps each row as first rendered for the same item: the rows' review
                  links carry the filters, so they must be drawn again when the filters change. */}
              <TableBody items={data.pcns} dependencies={[params.toString()]} renderEmptyState={() => <p className="table__empty">{SCREEN_TEXTS.noPcnsFound}</p>}>
                {(pcn) => {
                  const title = pcnTitle(pcn.pcnNumber);
                  return (
                    <Row id={pcn.id} className="table__row" textValue={title}>
                      <Cell className="table__nowrap">{title}</Cell>
                      <Cell className="table__nowrap">{pcn.vehicleRegistration}</Cell>
                      <Cell>{pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark}</Cell>
                      <Cell>{OFFENCE_TYPE_LABELS[pcn.offenceType] ?? pcn.offenceType}</Cell>
                      <Cell>{pcn.createdBy ? `${pcn.createdBy.firstName} ${pcn.createdBy.lastName}` : '—'}</Cell>
                      <Cell>
                        <span className="chip-stack">
                          <StatusChip status={pcn.status} />
                          {pcn.possibleDuplicates?.length ? (
                            <span className="chip chip--info">
                              <Copy aria-hidden="true" size={14} />
                              Possible duplicate
                            </span>
                          ) : null}
                        </span>
                      </Cell>
                      <Cell className="table__nowrap">{formatDateTime(pcn.createdAt)}</Cell>
                      {sort === DEADLINE ? (
                        <Cell>
                          {pcn.keeperNoticeDueAt ? (
                            <span className="chip-stack">
                              {formatDateTime(pcn.keeperNoticeDueAt)}
                              <KeeperDeadlineLeft dueAt={pcn.keeperNoticeDueAt} isWarning={pcn.deadlineWarning ?? false} now={data.loadedAt} />
                            </span>
                          ) : (
                            '—'
                          )}
                        </Cell>
                      ) : null}
                      <Cell>
                        <Link className="button button--secondary" href={reviewLink(pcn.id)} aria-label={`Review ${title}`}>
                          Review
                        </Link>
                      </Cell>
                    </Row>
                  );
                }}
              </TableBody>
            </Table>
          </div>
          <PaginationBar pagination={data.pagination} onPageChange={(p) => update({ page: String(p) }, false)} label="PCNs" />
        </>
      ) : null}
    </div>
  );
}
