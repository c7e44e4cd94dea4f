import type { DraftRecord } from '../../lib/local-db/records.ts';

/** What the officer reads about each notice in the outbox. */
export const OUTBOX_TEXTS = {
  waitingForSignal: 'Waiting for signal',
  sending: 'Sending',
  signInToSend: 'Sign in to send',
  sent: 'Sent',
  draft: 'Draft',
  failedPrefix: 'Failed: ',
  permitHolderNext: 'Edit to give the reason to issue despite the permit, or discard it.',
  retryNow: 'Retry now',
  discard: 'Discard',
  edit: 'Edit',
  view: 'View',
  listTitle: 'Outbox',
  discardTitle: 'Discard this notice?',
  discardMessage:
    'It has not reached the server. Its details and photos are deleted from this phone, and it will never be sent. This cannot be undone.',
  discardConfirm: 'Discard notice',
  offline: 'Offline',
  offlineDetail: 'No signal. Notices are saved on this phone and sent when signal returns.',
  unsent: 'unsent',
  observationClosed: 'Vehicle gone: observation closed, no notice',
  logoutTitle: 'Log out with notices not sent?',
  logoutMessage: (count: number) =>
    `${count === 1 ? '1 notice has' : `${count} notices have`} not reached the server yet. ${count === 1 ? 'It stays' : 'They stay'} on this phone and ${count === 1 ? 'is' : 'are'} sent when you sign in here again. Another officer signing in on this phone will not see or send ${count === 1 ? 'it' : 'them'}.`,
  logoutConfirm: 'Log out',
  photoCount: (count: number) => `${count} ${count === 1 ? 'photo' : 'photos'}`,
  unsentCountLabel: (count: number) => `${count} ${count === 1 ? 'notice' : 'notices'} waiting to be sent`,
  waitingToSend: (count: number) => `${count} ${count === 1 ? 'notice' : 'notices'} waiting to send`,
  sendsWhenSignalReturns: (count: number) =>
    count === 1 ? 'No signal: it is sent by itself when signal returns.' : 'No signal: they are sent by themselves when signal returns.',
  storageWarningLabel: 'Storage on this phone',
  storageAtRisk: (count: number) =>
    count === 1 ? 'This unsent notice may be lost if the phone fills up.' : 'Unsent notices may be lost if the phone fills up.',
  storageWhy: 'Why?',
  storageNotKept: (count: number) =>
    `This browser has not agreed to keep this app's storage: if the phone runs short of space it may delete ${count === 1 ? 'the notice' : `the ${count} notices`} not yet sent.`,
  storageAdvice: 'Send them as soon as you have signal. On an iPhone, add ParkPatrol to the Home Screen: Safari then keeps its storage.',
  storageRefused: 'The browser said no. Send them as soon as you have signal.',
  storageKeep: 'Ask the browser to keep them',
  updateAvailable: 'A new version is available',
  reload: 'Reload',
  later: 'Later',
} as const;

/** The state label of one outbox row: text, never colour alone, carries the meaning. */
export function describeDraftState(draft: Pick<DraftRecord, 'state' | 'lastError'>): string {
  switch (draft.state) {
    case 'queued':
      return OUTBOX_TEXTS.waitingForSignal;
    case 'sending':
      return OUTBOX_TEXTS.sending;
    case 'failed':
      return `${OUTBOX_TEXTS.failedPrefix}${draft.lastError ?? 'the server refused this notice'}`;
    case 'needs-sign-in':
      return OUTBOX_TEXTS.signInToSend;
    case 'sent':
      return OUTBOX_TEXTS.sent;
    case 'draft':
      return OUTBOX_TEXTS.draft;
    case 'closed':
      return OUTBOX_TEXTS.observationClosed;
  }
}
