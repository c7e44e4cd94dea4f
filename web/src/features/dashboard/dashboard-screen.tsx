import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { FilePlus2, List } from 'lucide-react';
import {
  DASHBOARD_COUNTER_STATUSES,
  emptyStatusCounts,
  ERROR_MESSAGES,
  pcnTitle,
  SCREEN_TEXTS,
  sumStatuses,
  welcomeBack,
  type PcnListItem,
  type PcnStats,
} from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { Alert } from '../../lib/alert.tsx';
import { useCurrentUser } from '../../lib/current-user.tsx';
import { useFilingCarParks } from '../../lib/filing-data.ts';
import { LinkButton } from '../../lib/button.tsx';
import { Card } from '../../lib/card.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';
import { StatusChip, StatusIcon } from '../../lib/status-chip.tsx';
import { ListAsOfNote } from '../../lib/stale-note.tsx';
import { useCachedAsync } from '../../lib/use-cached-async.ts';
import { getPcnStats } from './api/get-pcn-stats.ts';
import { getRecentPcns } from './api/get-recent-pcns.ts';

type Props = {
  /** The officer's unfinished forms, composed in by the app. */
  drafts?: ReactNode;
  /** The officer's open and recently closed observations, composed in by the app. */
  observations?: ReactNode;
  /** The outbox's rows, shown at the top of the recent list. */
  outbox?: ReactNode;
  /** Changes when the outbox has sent a notice, so the counters and the list include it. */
  refreshKey?: number;
  /** Notices filed on this phone and not on the server yet: while some wait, it is never "no PCNs submitted". */
  waitingCount?: number;
};

export function DashboardScreen({ drafts, observations, outbox, refreshKey = 0, waitingCount = 0 }: Props) {
  const user = useCurrentUser();
  const firstName = user?.firstName ?? '';
  // The phone's copy (refreshed at sign-in and on signal): an officer with no car park is told
  // here, not offered a form they cannot finish.
  const filing = useFilingCarParks(user?.id ?? null, { refresh: false });
  const hasNoCarParks = filing.carParks !== null && filing.carParks.length === 0;
  const stats = useCachedAsync('pcn-stats', getPcnStats, [refreshKey], ERROR_MESSAGES.fetchPcns);
  const recent = useCachedAsync('recent-pcns', getRecentPcns, [refreshKey], ERROR_MESSAGES.fetchPcns);

  return (
    <div className="page">
      <div>
        <PageHeading>{welcomeBack(firstName)}</PageHeading>
        <p className="muted">{SCREEN_TEXTS.dashboardSubtitle}</p>
      </div>
      {/* No signal: the counters and the list are the phone's last, and say as of when. */}
      <ListAsOfNote isUnreachable={recent.isUnreachable || stats.isUnreachable} asOf={recent.asOf ?? stats.asOf} />
      {hasNoCarParks ? <Alert tone="info">{SCREEN_TEXTS.noCarParksAssigned}</Alert> : null}
      {observations}
      {drafts}
      <div className="dashboard-grid">
        <Card title={SCREEN_TEXTS.quickActions} titleId="quick-actions-title">
          <div className="form-stack">
            {hasNoCarParks ? null : (
              <LinkButton href={paths.newPcn} className="button--block">
                <FilePlus2 aria-hidden="true" size={20} />
                {SCREEN_TEXTS.createNewPcn}
              </LinkButton>
            )}
            <LinkButton href={paths.pcns} variant="secondary" className="button--block">
              <List aria-hidden="true" size={20} />
              {SCREEN_TEXTS.viewAllPcns}
            </LinkButton>
          </div>
        </Card>
        <Card title={SCREEN_TEXTS.yourStatistics} titleId="statistics-title">
          {stats.error && !stats.error.isNetworkError ? <Alert>{stats.error.message}</Alert> : <Statistics stats={stats.data} />}
        </Card>
        <Card
          title={SCREEN_TEXTS.recentPcns}
          titleId="recent-title"
          className="card--wide"
          actions={
            <LinkButton href={paths.pcns} variant="text">
              {SCREEN_TEXTS.viewAll}
            </LinkButton>
          }
        >
          {outbox}
          <RecentPcns
            pcns={recent.data}
            isLoading={recent.isLoading && !recent.data}
            error={recent.error && !recent.error.isNetworkError ? recent.error.message : undefined}
            waitingCount={waitingCount}
          />
        </Card>
      </div>
    </div>
  );
}

function Statistics({ stats }: { stats: PcnStats | undefined }) {
  const counts = stats?.counts ?? emptyStatusCounts();
  const show = (value: number) => (stats ? value : '–');
  const counters = [
    { label: 'Total PCNs', value: show(stats?.total ?? 0) },
    { label: 'Approved', value: show(sumStatuses(counts, DASHBOARD_COUNTER_STATUSES.approved)) },
    { label: 'Pending', value: show(sumStatuses(counts, DASHBOARD_COUNTER_STATUSES.pending)) },
    { label: 'Rejected', value: show(sumStatuses(counts, DASHBOARD_COUNTER_STATUSES.rejected)) },
  ];
  return (
    <dl className="stats" aria-busy={!stats}>
      {counters.map((counter) => (
        <div className="stat" key={counter.label}>
          <dt>{counter.label}</dt>
          <dd>{counter.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function RecentPcns({
  pcns,
  isLoading,
  error,
  waitingCount,
}: {
  pcns: PcnListItem[] | undefined;
  isLoading: boolean;
  error: string | undefined;
  waitingCount: number;
}) {
  if (error && !pcns) return <Alert>{error}</Alert>;
  if (isLoading) return <p role="status">{SCREEN_TEXTS.loading}</p>;
  // No answer and no copy: the note above says so. Notices in the outbox above are submitted ones.
  if (!pcns) return null;
  if (pcns.length === 0) return waitingCount > 0 ? null : <p className="muted">{SCREEN_TEXTS.noPcnsYet}</p>;
  return (
    <ul className="recent-list" aria-label={SCREEN_TEXTS.recentPcns}>
      {pcns.map((pcn) => (
        <li key={pcn.id} className="recent-item">
          <Link to={paths.pcn(pcn.id)} className="recent-item__link">
            <StatusIcon status={pcn.status} />
            <span className="recent-item__text">
              <span className="recent-item__title">{pcnTitle(pcn.pcnNumber)}</span>
              <span className="recent-item__meta">
                {pcn.vehicleRegistration} · {pcn.carPark?.name ?? SCREEN_TEXTS.unknownCarPark}
              </span>
            </span>
            <StatusChip status={pcn.status} />
          </Link>
        </li>
      ))}
    </ul>
  );
}
