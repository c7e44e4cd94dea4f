/**
 * Slot in the top bar for connection state: the offline issue renders the online/offline
 * indicator and the count of unsent notices here. Kept as its own component so that work does
 * not touch the shell.
 */
export function TopbarStatus() {
  return <div className="topbar-status" />;
}
