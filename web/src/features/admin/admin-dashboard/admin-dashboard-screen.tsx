import { Link } from 'react-aria-components';
import { BarChart3, Building2, Copy, FileStack, Mail, Users } from 'lucide-react';
import {
  describePostingWindow,
  ERROR_MESSAGES,
  KEEPER_NOTICE_WARNING_WORKING_DAYS,
  NAV_LABELS,
  PCN_STATUS_LABELS,
  PCN_STATUSES,
  pcnTitle,
  RECENT_PCNS_COUNT,
  SCREEN_TEXTS,
  type PcnListResponse,
  type PcnStats,
} from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { LinkButton } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { StatusChip, StatusIcon } from '../../../lib/status-chip.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { getAdminPcns, getAdminPcnStats } from '../api/pcns.ts';
import { KeeperDeadlineLeft } from '../components/keeper-deadline.tsx';
import { reviewHref } from '../manage-pcns/review-href.ts';
import { MoneyAtAGlance } from './money-at-a-glance.tsx';
import { OfficerObservations } from './officer-observations.tsx';
import '../admin.css';

const ADMIN_LINKS = [
  { href: paths.admin.pcns, label: NAV_LABELS.managePcns, icon: FileStack },
  { href: paths.admin.users, label: NAV_LABELS.manageUsers, icon: Users },
  { href: paths.admin.carParks, label: NAV_LABELS.manageCarParks, icon: Building2 },
  { href: paths.admin.onboarding, label: SCREEN_TEXTS.clientOnboarding, icon: Mail },
  { href: paths.admin.analytics, label: SCREEN_TEXTS.analyticsDashboard, icon: BarChart3 },
];

/** How many PCNs the keeper-notice queue shows; the rest are a link away in Manage PCNs. */
const DEADLINE_QUEUE_SIZE = 10;

type DashboardData = {
  stats: PcnStats;
  newest: PcnListResponse;
  deadlines: PcnListResponse;
  duplicateCount: number;
  /** Charges a landowner asked to have cancelled, waiting on an admin's answer. */
  cancellationRequestCount: number;
  /** The time the days left are counted from: the time of the answer, not of each render. */
  loadedAt: Date;
};

async function loadDashboard(): Promise<DashboardData> {
  const [stats, newest, deadlines, duplicates, cancellationRequests] = await Promise.all([
    getAdminPcnStats(),
    getAdminPcns({ page: 1, limit: RECENT_PCNS_COUNT }),
    getAdminPcns({ page: 1, limit: DEADLINE_QUEUE_SIZE, sort: 'deadline' }),
    getAdminPcns({ page: 1, limit: 1, flagged: 'duplicates' }),
    getAdminPcns({ page: 1, limit: 1, cancellationRequest: 'PENDING' }),
  ]);
  return {
    stats,
    newest,
    deadlines,
    duplicateCount: duplicates.pagination.total,
    cancellationRequestCount: cancellationRequests.pagination.total,
    loadedAt: new Date(),
  };
}

export function AdminDashboardScreen() {
  const dashboard = useAsync(loadDashboard, [], ERROR_MESSAGES.fetchPcns);
  const data = dashboard.data;
  const waitingCount = data ? data.stats.counts.SUBMITTED + data.stats.counts.UNDER_REVIEW : 0;

  return (
    <div className="page">
      <PageHeading>{NAV_LABELS.adminDashboard}</PageHeading>
      {dashboard.error ? <Alert>{dashboard.error.message}</Alert> : null}
      {!data && dashboard.isLoading ? <Spinner /> : null}
      {data ? (
        <>
          <Card title="Waiting for review" titleId="admin-waiting-title">
            <div className="highlight-stat">
              <p>
                <span className="highlight-stat__value">{waitingCount}</span>{' '}
                <span className="muted">
                  PCNs ({data.stats.counts.SUBMITTED} {PCN_STATUS_LABELS.SUBMITTED.toLowerCase()}, {data.stats.counts.UNDER_REVIEW}{' '}
                  {PCN_STATUS_LABELS.UNDER_REVIEW.toLowerCase()})
                </span>
              </p>
              <div className="button-row">
                <LinkButton href={`${paths.admin.pcns}?status=SUBMITTED`}>Review submitted PCNs</LinkButton>
                <LinkButton href={`${paths.admin.pcns}?status=UNDER_REVIEW`} variant="secondary">
                  Under review
                </LinkButton>
              </div>
            </div>
          </Card>
          <DeadlineQueue deadlines={data.deadlines} now={data.loadedAt} />
          <MoneyAtAGlance />
          <OfficerObservations />
          <Card title="Possible duplicates" titleId="admin-duplicates-title">
            <div className="highlight-stat">
              <p>
                <span className="highlight-stat__value">{data.duplicateCount}</span>{' '}
                <span className="muted">
                  {data.duplicateCount === 1 ? 'PCN shares' : 'PCNs share'} a vehicle, car park and day with another notice
                </span>
              </p>
              <LinkButton href={`${paths.admin.pcns}?flagged=duplicates`} variant={data.duplicateCount > 0 ? 'primary' : 'secondary'}>
                <Copy aria-hidden="true" size={18} />
                Review possible duplicates
              </LinkButton>
            </div>
          </Card>
          <Card title="Cancellation requests" titleId="admin-cancellation-requests-title">
            <div className="highlight-stat">
              <p>
                <span className="highlight-stat__value">{data.cancellationRequestCount}</span>{' '}
                <span className="muted">
                  {data.cancellationRequestCount === 1 ? 'request from a landowner waits' : 'requests from landowners wait'} for your answer
                </span>
              </p>
              <LinkButton
                href={`${paths.admin.pcns}?cancellationRequest=PENDING`}
                variant={data.cancellationRequestCount > 0 ? 'primary' : 'secondary'}
              >
                Answer cancellation requests
              </LinkButton>
            </div>
          </Card>
          <Card title="PCNs by status" titleId="admin-status-title">
            <dl className="summary-cards">
              {PCN_STATUSES.map((status) => (
                <div key={status} className="summary-card">
                  <dt>{PCN_STATUS_LABELS[status]}</dt>
                  <dd>{data.stats.counts[status] ?? 0}</dd>
                </div>
              ))}
              <div className="summary-card">
                <dt>All PCNs</dt>
                <dd>{data.stats.total}</dd>
              </div>
            </dl>
          </Card>
          <Card
            title="Newest submissions"
            titleId="admin-newest-title"
            actions={
              <LinkButton href={paths.admin.pcns} variant="text">
                {SCREEN_TEXTS.viewAll}
              </LinkButton>
            }
          >
            {data.newest.pcns.length === 0 ? (
              <p className="muted">No PCNs have been submitted yet.</p>
            ) : (
              <ul className="recent-list">
                {data.newest.pcns.map((pcn) => (
                  <li key={pcn.id} className="recent-item">
                    <Link href={reviewHref(pcn.id)} className="recent-item__link">
                      <StatusIcon status={pcn.status} />
                      <span className="recent-item__text">
                        <span className="recent-item__title">{pcnTitle(pcn.pcnNumber)}</span>
                        <span className="recent-item__meta">
                          {pcn.vehicleRegistration} · {pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark} · {formatDateTime(pcn.createdAt)}
                        </span>
                      </span>
                      <StatusChip status={pcn.status} />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </>
      ) : null}
      <Card title={SCREEN_TEXTS.administration} titleId="admin-links-title">
        <ul className="admin-links">
          {ADMIN_LINKS.map(({ href, label, icon: Icon }) => (
            <li key={href}>
              <Link href={href} className="admin-link">
                <Icon aria-hidden="true" size={22} />
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

/** Open PCNs by the last day their notice to keeper may be posted, nearest first. */
function DeadlineQueue({ deadlines, now }: { deadlines: PcnListResponse; now: Date }) {
  const columns = ['PCN Number', 'Vehicle Registration', 'Car Park', 'Status', 'Notice to keeper', 'Time left'] as const;
  return (
    <Card
      title="Keeper notice deadlines"
      titleId="admin-deadlines-title"
      actions={
        <LinkButton href={`${paths.admin.pcns}?sort=deadline`} variant="text" aria-label="View all PCNs by keeper notice deadline">
          {SCREEN_TEXTS.viewAll}
        </LinkButton>
      }
    >
      <p className="muted card__intro">
        Submitted, under review and approved PCNs, nearest last posting day first. From {KEEPER_NOTICE_WARNING_WORKING_DAYS} working days
        before it, the row shows a warning.
      </p>
      {deadlines.pcns.length === 0 ? (
        <p className="table__empty">No PCNs are waiting for a notice to keeper.</p>
      ) : (
        <div className="admin-table-scroll">
          <table className="table table--cards deadline-table" aria-labelledby="admin-deadlines-title">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {deadlines.pcns.map((pcn) => {
                const title = pcnTitle(pcn.pcnNumber);
                const dueAt = pcn.keeperNoticeDueAt;
                return (
                  <tr key={pcn.id} className={pcn.deadlineWarning ? 'deadline-row--warning' : undefined}>
                    <th scope="row" role="rowheader" data-label={columns[0]}>
                      <Link href={reviewHref(pcn.id)} className="text-link">
                        {title}
                      </Link>
                    </th>
                    <td role="cell" data-label={columns[1]}>
                      {pcn.vehicleRegistration}
                    </td>
                    <td role="cell" data-label={columns[2]}>
                      {pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark}
                    </td>
                    <td role="cell" data-label={columns[3]}>
                      <StatusChip status={pcn.status} />
                    </td>
                    <td role="cell" data-label={columns[4]}>
                      {describePostingWindow(pcn.keeperNotice)}
                    </td>
                    <td role="cell" data-label={columns[5]}>
                      {dueAt ? <KeeperDeadlineLeft dueAt={dueAt} isWarning={pcn.deadlineWarning ?? false} now={now} /> : '—'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {deadlines.pagination.total > deadlines.pcns.length ? (
        <p className="muted">
          Showing the {deadlines.pcns.length} nearest of {deadlines.pagination.total}.
        </p>
      ) : null}
    </Card>
  );
}
