import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Eye, Pencil, Plus, Search } from 'lucide-react';
import {
  ERROR_MESSAGES,
  formatListTotal,
  isEditableStatus,
  NAV_LABELS,
  OFFENCE_TYPE_LABELS,
  PCN_STATUSES,
  PCN_STATUS_LABELS,
  pcnTitle,
  SCREEN_TEXTS,
  type PcnListItem,
  type PcnStatus,
} from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { Alert } from '../../lib/alert.tsx';
import { Button, LinkButton } from '../../lib/button.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { PageHeading } from '../../lib/page-heading.tsx';
import { SelectField } from '../../lib/select-field.tsx';
import { Spinner } from '../../lib/spinner.tsx';
import { StatusChip } from '../../lib/status-chip.tsx';
import { ListAsOfNote } from '../../lib/stale-note.tsx';
import { useCachedAsync } from '../../lib/use-cached-async.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { getPcns, pcnListCacheKey } from './api/get-pcns.ts';
import { OpenDrafts } from './open-drafts.tsx';

const ALL_STATUSES = 'ALL';
const STATUS_OPTIONS = [
  { id: ALL_STATUSES, label: SCREEN_TEXTS.allStatuses },
  ...PCN_STATUSES.map((status) => ({ id: status, label: PCN_STATUS_LABELS[status] })),
];
const SEARCH_DEBOUNCE_MS = 300;
/** The table's columns (docs/product.md, My PCNs). */
const COLUMNS = ['PCN Number', 'Vehicle Registration', 'Car Park', 'Offence Type', 'Status', 'Submitted', 'Actions'] as const;

function parseStatus(value: string | null): PcnStatus | null {
  return value && (PCN_STATUSES as readonly string[]).includes(value) ? (value as PcnStatus) : null;
}

type Props = {
  /** The outbox's rows (notices not on the server yet), composed in by the app. */
  outbox?: ReactNode;
  /** Changes when the outbox has sent a notice, so the list shows it with its number. */
  refreshKey?: number;
  /** Notices filed on this phone and not on the server yet: while some wait, the list is never "none submitted". */
  waitingCount?: number;
};

/** My PCNs: search, status filter and page live in the URL, so Back returns to the same view. */
export function PcnListScreen({ outbox, refreshKey = 0, waitingCount = 0 }: Props) {
  const [searchParams, setSearchParams] = useSearchParams();
  const status = parseStatus(searchParams.get('status'));
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const search = searchParams.get('search') ?? '';
  const [searchText, setSearchText] = useState(search);
  const searchId = useId();
  const debouncedSearch = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);

  function updateParams(changes: Record<string, string | null>) {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  }

  useEffect(() => {
    if (debouncedSearch.trim() !== search) updateParams({ search: debouncedSearch.trim() || null, page: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedSearch]);

  const query = { page, status, search };
  const list = useCachedAsync(pcnListCacheKey(query), () => getPcns(query), [page, status, search, refreshKey], ERROR_MESSAGES.fetchPcns);
  const pcns = list.data?.pcns ?? [];
  const pagination = list.data?.pagination;
  const isFiltered = Boolean(search || status);

  return (
    <div className="page">
      <div className="page-header">
        <PageHeading>{NAV_LABELS.myPcns}</PageHeading>
        <LinkButton href={paths.newPcn}>
          <Plus aria-hidden="true" size={20} />
          {SCREEN_TEXTS.submitNewPcn}
        </LinkButton>
      </div>
      <div className="filters" role="search">
        <div className="field">
          <label className="field__label" htmlFor={searchId}>
            Search
          </label>
          <div className="search-input">
            <Search aria-hidden="true" size={18} className="search-input__icon" />
            <input
              id={searchId}
              type="search"
              className="field__input search-input__field"
              placeholder={SCREEN_TEXTS.searchPcns}
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
              aria-describedby={`${searchId}-hint`}
              autoComplete="off"
            />
          </div>
          <span id={`${searchId}-hint`} className="visually-hidden">
            Vehicle registration or PCN number
          </span>
        </div>
        <SelectField
          label="Status"
          options={STATUS_OPTIONS}
          value={status ?? ALL_STATUSES}
          onChange={(value) => updateParams({ status: value && value !== ALL_STATUSES ? value : null, page: null })}
        />
      </div>
      <OpenDrafts />
      {outbox}
      {/* No signal: the last list the phone had, and as of when; never an error the officer cannot fix. */}
      <ListAsOfNote isUnreachable={list.isUnreachable} asOf={list.asOf} />
      {list.error && !list.error.isNetworkError ? <Alert>{list.error.message}</Alert> : null}
      {list.isLoading && !list.data ? (
        <Spinner />
      ) : !list.data ? null : pcns.length === 0 ? (
        // Notices waiting in the outbox above are submitted: the list is not "none yet" while they wait.
        isFiltered || waitingCount === 0 ? (
          <EmptyState isFiltered={isFiltered} />
        ) : null
      ) : (
        <>
          <PcnTable pcns={pcns} isBusy={list.isLoading} />
          {pagination && pagination.pages > 1 ? (
            <nav className="pagination" aria-label="Pagination">
              <Button variant="secondary" isDisabled={page <= 1} onPress={() => updateParams({ page: String(page - 1) })}>
                Previous
              </Button>
              <span aria-live="polite">{`Page ${pagination.page} of ${pagination.pages}${pagination.totalCapped ? '+' : ''} · ${formatListTotal(pagination)} PCNs`}</span>
              <Button variant="secondary" isDisabled={page >= pagination.pages} onPress={() => updateParams({ page: String(page + 1) })}>
                Next page
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}

function EmptyState({ isFiltered }: { isFiltered: boolean }) {
  return (
    <div className="empty-state" role="status">
      <h2 className="empty-state__title">{SCREEN_TEXTS.noPcnsFound}</h2>
      {isFiltered ? (
        <p className="muted">{SCREEN_TEXTS.tryAdjusting}</p>
      ) : (
        <>
          <p className="muted">{SCREEN_TEXTS.noPcnsSubmitted}</p>
          <LinkButton href={paths.newPcn}>{SCREEN_TEXTS.submitFirstPcn}</LinkButton>
        </>
      )}
    </div>
  );
}

function PcnTable({ pcns, isBusy }: { pcns: PcnListItem[]; isBusy: boolean }) {
  return (
    // Between the phone cards and a wide desktop the table may scroll sideways; focusable so keyboards can.
    <div className="table-scroll" role="region" aria-label="PCN table" tabIndex={0} aria-busy={isBusy}>
      {/* Explicit roles keep table semantics when the phone layout restyles rows as cards. */}
      <table className="table table--cards table--pcn-cards" role="table">
        <caption className="visually-hidden">{NAV_LABELS.myPcns}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {COLUMNS.map((column) => (
              <th key={column} scope="col" role="columnheader">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {pcns.map((pcn) => {
            const title = pcnTitle(pcn.pcnNumber);
            return (
              <tr key={pcn.id} role="row">
                <th scope="row" role="rowheader" data-label={COLUMNS[0]}>
                  {title}
                </th>
                <td role="cell" data-label={COLUMNS[1]}>
                  {pcn.vehicleRegistration}
                </td>
                <td role="cell" data-label={COLUMNS[2]}>
                  {pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark}
                </td>
                <td role="cell" data-label={COLUMNS[3]}>
                  {OFFENCE_TYPE_LABELS[pcn.offenceType] ?? pcn.offenceType}
                </td>
                <td role="cell" data-label={COLUMNS[4]}>
                  <StatusChip status={pcn.status} />
                </td>
                <td role="cell" data-label={COLUMNS[5]}>
                  {formatDateTime(pcn.createdAt)}
                </td>
                <td role="cell" data-label={COLUMNS[6]}>
                  <div className="table__actions">
                    {/* On a phone this link covers the whole card (app/styles/lists.css): tap anywhere to open it. */}
                    <Link to={paths.pcn(pcn.id)} className="button button--icon pcn-card__open" aria-label={`View ${title}`}>
                      <Eye aria-hidden="true" size={20} />
                    </Link>
                    {isEditableStatus(pcn.status) ? (
                      <Link to={paths.editPcn(pcn.id)} className="button button--text pcn-card__edit" aria-label={`Edit ${title}`}>
                        <Pencil aria-hidden="true" size={18} />
                        Edit
                      </Link>
                    ) : null}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
