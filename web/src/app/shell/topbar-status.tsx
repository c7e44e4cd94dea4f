import { OnlineStatus } from '../../features/outbox/online-status.tsx';
import { UnsentCount } from '../../features/outbox/unsent-count.tsx';

/** Connection state in the top bar: 'Offline' while there is no network, and the unsent count. */
export function TopbarStatus({ userId }: { userId: string | null }) {
  return (
    <div className="topbar-status">
      <OnlineStatus />
      <UnsentCount userId={userId} />
    </div>
  );
}
