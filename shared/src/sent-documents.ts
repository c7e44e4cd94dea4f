import type { CalendarDate } from './keeper-liability.ts';

/**
 * What was sent is kept (decision 0025): every document given to a motorist or keeper is stored
 * as it was made, with its SHA-256, so a later change of template or terms never changes what
 * the operator can show it sent. The kinds are a closed set: a new kind of letter is added here,
 * with its label and its file's name, and nowhere else.
 */
export const SENT_DOCUMENT_KINDS = [
  'NOTICE_TO_DRIVER',
  'NOTICE_TO_KEEPER',
  'DECISION_LETTER',
  'NOTICE_TO_HIRER',
  'NOTICE_TO_NAMED_DRIVER',
  'REQUEST_TO_NAME_DRIVER',
  'REMINDER',
  'LETTER_BEFORE_CLAIM',
] as const;
export type SentDocumentKind = (typeof SENT_DOCUMENT_KINDS)[number];

export const SENT_DOCUMENT_KIND_LABELS: Record<SentDocumentKind, string> = {
  NOTICE_TO_DRIVER: 'Notice to driver',
  NOTICE_TO_KEEPER: 'Notice to keeper',
  DECISION_LETTER: 'Appeal decision letter',
  NOTICE_TO_HIRER: 'Notice to hirer',
  NOTICE_TO_NAMED_DRIVER: 'Notice to the named driver',
  REQUEST_TO_NAME_DRIVER: 'Request to name the driver',
  REMINDER: 'Reminder',
  LETTER_BEFORE_CLAIM: 'Letter before claim',
};

/** What a document's download is called: its kind, the charge and the day it was sent or made. */
const FILE_STEMS: Record<SentDocumentKind, string> = {
  NOTICE_TO_DRIVER: 'notice-to-driver',
  NOTICE_TO_KEEPER: 'notice-to-keeper',
  DECISION_LETTER: 'appeal-decision',
  NOTICE_TO_HIRER: 'notice-to-hirer',
  NOTICE_TO_NAMED_DRIVER: 'notice-to-named-driver',
  REQUEST_TO_NAME_DRIVER: 'request-to-name-driver',
  REMINDER: 'reminder',
  LETTER_BEFORE_CLAIM: 'letter-before-claim',
};

export function isSentDocumentKind(value: string): value is SentDocumentKind {
  return (SENT_DOCUMENT_KINDS as readonly string[]).includes(value);
}

/** One stored document, as GET /pcns/{id}/documents lists it (admins only). */
export type SentDocument = {
  id: string;
  pcnId: string;
  kind: SentDocumentKind;
  /** When it was made and stored (an instant). */
  createdAt: string;
  /** The posting day printed on a letter ('Date sent'), or null for a document not posted. */
  postOn: CalendarDate | null;
  /** The SHA-256 of the stored bytes, hex: what GET /pcns/{id}/documents/{documentId} returns. */
  sha256: string;
  sizeBytes: number;
  mimeType: string;
  /** The reference the document printed beside the charge's number: a ticket's draft reference, an appeal's reference. */
  reference: string | null;
  /** Who made it: the admin who generated or decided, the officer who filed the notice. */
  createdBy: { id: string | null; name: string };
  /** The name the download is saved under. */
  fileName: string;
  /** When the retention policy removed the file (its hash stays); null while it is kept. */
  purgedAt: string | null;
};

export type SentDocumentListResponse = { items: SentDocument[] };

export function sentDocumentFileName(input: { kind: SentDocumentKind; pcnNumber: string; day: CalendarDate; mimeType: string }): string {
  const extension = input.mimeType === 'application/pdf' ? 'pdf' : 'json';
  return `${FILE_STEMS[input.kind]}-PCN-${input.pcnNumber}-${input.day}.${extension}`;
}
