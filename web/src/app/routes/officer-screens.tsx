import { useSession } from '../../features/auth/session-store.ts';
import { DashboardScreen } from '../../features/dashboard/dashboard-screen.tsx';
import { OutboxList } from '../../features/outbox/outbox-list.tsx';
import { describeDraftState } from '../../features/outbox/outbox-texts.ts';
import { useSentCount, useUnsentCount } from '../../features/outbox/use-outbox.ts';
import { OpenObservations } from '../../features/pcns/observations/open-observations.tsx';
import { OpenDrafts } from '../../features/pcns/open-drafts.tsx';
import { OutboxNoticeScreen } from '../../features/pcns/outbox-notice.tsx';
import { PcnListScreen } from '../../features/pcns/pcn-list.tsx';

/**
 * The officer's lists with the outbox composed in (features do not import each other): notices
 * on the phone sit at the top, and the server's list reloads when one of them has been sent.
 */
export function MyPcnsRoute() {
  const userId = useSession((s) => s.user?.id ?? null);
  const sentCount = useSentCount(userId);
  const waitingCount = useUnsentCount(userId);
  return <PcnListScreen outbox={<OutboxList userId={userId} />} refreshKey={sentCount} waitingCount={waitingCount} />;
}

export function DashboardRoute() {
  const userId = useSession((s) => s.user?.id ?? null);
  const sentCount = useSentCount(userId);
  const waitingCount = useUnsentCount(userId);
  return (
    <DashboardScreen
      drafts={<OpenDrafts />}
      observations={<OpenObservations />}
      outbox={<OutboxList userId={userId} />}
      refreshKey={sentCount}
      waitingCount={waitingCount}
    />
  );
}

/** A notice in the outbox, read from the phone: the outbox says where it is. */
export function OutboxNoticeRoute() {
  return <OutboxNoticeScreen describeState={describeDraftState} />;
}
