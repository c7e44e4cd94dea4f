import { LandownerCarParkScreen } from '../../features/landowner/landowner-screens.tsx';
import { PermitsPanel } from '../../features/permits/permits-panel.tsx';

/** A landowner's car park with the permits feature's panel composed in (features do not import each other). */
export function LandownerCarParkRoute() {
  return <LandownerCarParkScreen permits={(carParkId) => <PermitsPanel carParkId={carParkId} />} />;
}
