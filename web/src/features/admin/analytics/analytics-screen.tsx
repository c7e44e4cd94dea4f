import { Cell, Column, Link, ProgressBar, Row, Tab, Table, TableBody, TableHeader, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Activity as ActivityIcon, Eye, FilePlus2, LogIn, PencilLine } from 'lucide-react';
import {
  ADMIN_TEXTS,
  describeActivity,
  ERROR_MESSAGES,
  formatActivityType,
  formatTimeOnSite,
  SCREEN_TEXTS,
  type Activity,
  type AnalyticsSummary,
  type UserWithStats,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Card } from '../../../lib/card.tsx';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { toApiError } from '../../../lib/api-client.ts';
import { getAnalyticsSummary, getUserStats } from '../api/analytics.ts';
import { reviewHref } from '../manage-pcns/review-href.ts';
import { RoleChip } from '../components/chips.tsx';
import { PcnsByStatusChart, PcnsPerDayChart } from './pcn-charts.tsx';
import '../admin.css';

type AnalyticsData = { summary: AnalyticsSummary; userStats: UserWithStats[] };

async function loadAnalytics(): Promise<AnalyticsData> {
  // Each call keeps its own fallback message, so the admin reads which load failed.
  const [summary, userStats] = await Promise.all([
    getAnalyticsSummary().catch((error: unknown) => {
      throw toApiError(error, ERROR_MESSAGES.fetchAnalytics);
    }),
    getUserStats().catch((error: unknown) => {
      throw toApiError(error, ERROR_MESSAGES.fetchUserStats);
    }),
  ]);
  return { summary, userStats };
}

/** docs/product.md, Analytics: the summary, charts of PCNs per day (30 days) and by status, and two tabs. */
export function AnalyticsScreen() {
  const analytics = useAsync(loadAnalytics, [], ERROR_MESSAGES.fetchAnalytics);

  if (analytics.isLoading && !analytics.data) {
    return (
      <div className="page">
        <PageHeading>{SCREEN_TEXTS.analyticsDashboard}</PageHeading>
        <ProgressBar className="progress" isIndeterminate aria-label={SCREEN_TEXTS.loadingAnalytics}>
          <div className="progress__track">
            <div className="progress__fill" />
          </div>
          <span>{SCREEN_TEXTS.loadingAnalytics}</span>
        </ProgressBar>
      </div>
    );
  }
  // Any load error replaces the page with an error alert (docs/product.md, Analytics).
  if (analytics.error || !analytics.data) {
    return (
      <div className="page">
        <PageHeading>{SCREEN_TEXTS.analyticsDashboard}</PageHeading>
        <Alert>{analytics.error?.message ?? ERROR_MESSAGES.fetchAnalytics}</Alert>
      </div>
    );
  }

  const { summary, userStats } = analytics.data;
  const cards = [
    { label: ADMIN_TEXTS.totalUsers, value: summary.totalUsers },
    { label: ADMIN_TEXTS.activeUsers30d, value: summary.activeUsers },
    { label: ADMIN_TEXTS.totalPcns, value: summary.totalPCNs },
    { label: ADMIN_TEXTS.totalActivities, value: summary.totalActivities },
  ];

  return (
    <div className="page">
      <PageHeading>{SCREEN_TEXTS.analyticsDashboard}</PageHeading>
      <div className="summary-cards">
        {cards.map((card) => (
          <dl key={card.label} className="summary-card">
            <dt>{card.label}</dt>
            <dd>{card.value}</dd>
          </dl>
        ))}
      </div>

      <Tabs className="tabs" defaultSelectedKey="users">
        <TabList className="tabs__list" aria-label={SCREEN_TEXTS.analyticsDashboard}>
          <Tab id="users" className="tabs__tab">
            {SCREEN_TEXTS.userStatistics}
          </Tab>
          <Tab id="activity" className="tabs__tab">
            {SCREEN_TEXTS.recentActivity}
          </Tab>
        </TabList>
        <TabPanel id="users" className="tabs__panel">
          <UserStatsTable userStats={userStats} />
        </TabPanel>
        <TabPanel id="activity" className="tabs__panel">
          <Card>
            <RecentActivity activities={summary.recentActivities} />
          </Card>
        </TabPanel>
      </Tabs>

      <div className="charts">
        <Card title="PCNs submitted per day (last 30 days)" titleId="chart-per-day-title" className="chart">
          <PcnsPerDayChart days={summary.pcnsPerDay} labelledBy="chart-per-day-title" />
        </Card>
        <Card title="PCNs by status" titleId="chart-by-status-title" className="chart">
          <PcnsByStatusChart counts={summary.pcnsByStatus} labelledBy="chart-by-status-title" />
        </Card>
      </div>
    </div>
  );
}

function UserStatsTable({ userStats }: { userStats: UserWithStats[] }) {
  return (
    <div className="admin-table-scroll">
      <Table aria-label={SCREEN_TEXTS.userStatistics} className="table">
        <TableHeader>
          <Column isRowHeader>{ADMIN_TEXTS.user}</Column>
          <Column>{ADMIN_TEXTS.role}</Column>
          <Column>{ADMIN_TEXTS.logins}</Column>
          <Column>{ADMIN_TEXTS.pcnsSubmitted}</Column>
          <Column>{ADMIN_TEXTS.pcnsViewed}</Column>
          <Column>{ADMIN_TEXTS.timeOnSite}</Column>
          <Column>{ADMIN_TEXTS.lastActivity}</Column>
        </TableHeader>
        <TableBody items={userStats.map((entry) => ({ ...entry, id: entry.user.id }))}>
          {({ user, stats }) => (
            <Row id={user.id} className="table__row" textValue={`${user.firstName} ${user.lastName}`}>
              <Cell>
                <span>{`${user.firstName} ${user.lastName}`}</span>
                <span className="table__secondary">{user.email}</span>
              </Cell>
              <Cell>
                <RoleChip role={user.role} />
              </Cell>
              <Cell>{stats.totalLogins}</Cell>
              <Cell>{stats.totalPCNsSubmitted}</Cell>
              <Cell>{stats.totalPCNsViewed}</Cell>
              <Cell>{formatTimeOnSite(stats.totalTimeOnSite)}</Cell>
              <Cell>{stats.lastActivityAt ? formatDate(stats.lastActivityAt) : SCREEN_TEXTS.never}</Cell>
            </Row>
          )}
        </TableBody>
      </Table>
    </div>
  );
}

const ACTIVITY_ICONS = { LOGIN: LogIn, PCN_CREATED: FilePlus2, PCN_VIEWED: Eye, PCN_EDITED: PencilLine } as const;

function RecentActivity({ activities }: { activities: Activity[] }) {
  if (activities.length === 0) return <p className="muted">No activity yet.</p>;
  return (
    <ul className="activity-list" aria-label={SCREEN_TEXTS.recentActivity}>
      {activities.map((activity) => {
        const Icon = ACTIVITY_ICONS[activity.activityType as keyof typeof ACTIVITY_ICONS] ?? ActivityIcon;
        const name = activity.user ? `${activity.user.firstName} ${activity.user.lastName}` : SCREEN_TEXTS.unknownUser;
        return (
          <li key={activity.id} className="activity-item">
            <span className="activity-item__icon" aria-hidden="true">
              <Icon size={18} />
            </span>
            <div className="activity-item__body">
              <div className="activity-item__head">
                <span>{name}</span>
                <span className="chip chip--info">{formatActivityType(activity.activityType)}</span>
              </div>
              <ActivityText activity={activity} actor={name} />
              <p className="muted">{formatDateTime(activity.createdAt)}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** The activity as a sentence, its PCN a link to that PCN's review. */
function ActivityText({ activity, actor }: { activity: Activity; actor: string }) {
  const sentence = describeActivity(activity, actor);
  return (
    <p>
      {sentence.before}
      {sentence.pcn ? (
        <Link href={reviewHref(sentence.pcn.id)} className="text-link">
          {sentence.pcn.title}
        </Link>
      ) : null}
      {sentence.after}
    </p>
  );
}
