import { useSession } from '../../features/auth/session-store.ts';
import { DashboardScreen } from '../../features/dashboard/dashboard-screen.tsx';
import { OutboxList } from '../../features/outbox/outbox-list.tsx';
import { useSentCount } from '../../features/outbox/use-outbox.ts';
import { OpenObservations } from '../../features/pcns/observations/open-observations.tsx';
import { OpenDrafts } from '../../features/pcns/open-drafts.tsx';
import { PcnListScreen } from '../../features/pcns/pcn-list.tsx';

/**
 * The officer's lists with the outbox composed in (features do not import each other): notices
 * on the phone sit at the top, and the server's list reloads when one of them has been sent.
 */
export function MyPcnsRoute() {
  const userId = useSession((s) => s.user?.id ?? null);
  const sentCount = useSentCount(userId);
  return <PcnListScreen outbox={<OutboxList userId={userId} />} refreshKey={sentCount} />;
}

export function DashboardRoute() {
  const userId = useSession((s) => s.user?.id ?? null);
  const sentCount = useSentCount(userId);
  return (
    <DashboardScreen
      drafts={<OpenDrafts />}
      observations={<OpenObservations />}
      outbox={<OutboxList userId={userId} />}
      refreshKey={sentCount}
    />
  );
}
