/**
 * Telling the officer an observation is due (docs/decisions/0012): always in the app (the banner
 * and the list), and as a system notification where the browser has them and the officer allowed
 * it. Permission is asked when the first observation starts, a moment the officer understands.
 */

function notificationsAvailable(): boolean {
  return typeof Notification !== 'undefined';
}

/** Asks once (the browser remembers the answer); never throws, never blocks the form. */
export function requestReminderPermission(): void {
  if (!notificationsAvailable() || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

export function canNotify(): boolean {
  return notificationsAvailable() && Notification.permission === 'granted';
}

/**
 * A notification through the service worker (Android Chrome allows no `new Notification` from a
 * page), falling back to the page's own. Tapping it opens the observation (sw.ts).
 */
export async function showDueNotification(observation: { id: string; title: string; body: string; url: string }): Promise<void> {
  if (!canNotify()) return;
  const options: NotificationOptions = { body: observation.body, tag: `observation-${observation.id}`, data: { url: observation.url } };
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    if (registration) {
      await registration.showNotification(observation.title, options);
      return;
    }
    new Notification(observation.title, options);
  } catch {
    // The banner says it anyway.
  }
}
