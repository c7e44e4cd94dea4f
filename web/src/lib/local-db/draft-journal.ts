import { discardDraft, EDITABLE_DRAFT_STATES, PhotoReadBackError, queueDraft, saveDraft } from './drafts.ts';
import type { DraftRecord, LocalDb } from './records.ts';

/**
 * The form's writes still in flight, kept in local storage (decision 0045). An IndexedDB write is
 * asynchronous: a page closed or reloaded before its transaction commits loses it, and with it the
 * officer's last change or a Submit. Local storage is written synchronously, so each write is noted
 * here before it starts and the note is removed once IndexedDB has committed; whatever is still
 * noted at the next start (or when the draft is opened, or at sign-out) is applied again.
 *
 * Only the draft's fields, photo ticks, photo removals and Submit are noted: a photo's bytes never
 * come here. Each note holds the whole value it writes (never a difference), so applying it twice
 * is the same as once. Every note names its officer, and is applied only to that officer's drafts.
 */

export const DRAFT_JOURNAL_KEY = 'parkpatrol:draft-journal';
/** Notes normally live for one IndexedDB commit; these bounds only stop a journal that can never drain from growing. */
export const DRAFT_JOURNAL_MAX_NOTES = 40;
export const DRAFT_JOURNAL_MAX_CHARS = 200_000;

export type JournalStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type JournalNote =
  /** The draft's row as the form saves it (fields only: photos are rows of their own). */
  | { kind: 'fields'; userId: string; draftId: string; draft: DraftRecord }
  /** The checklist shots ticked on a stored photo. */
  | { kind: 'shots'; userId: string; photoId: string; shots: string[] }
  | { kind: 'photo-removed'; userId: string; photoId: string }
  /** Submit: the draft joins the outbox, with the photos the form showed (read back first, as Submit does). */
  | { kind: 'queued'; userId: string; draftId: string; at: number; photoIds: string[] };

type StoredNote = JournalNote & { key: string; token: string };

export type DraftJournal = {
  /** Notes a write about to start; the token removes exactly this note (a newer one for the same thing stays). */
  note(entry: JournalNote): string | null;
  /** The write of `token` has committed. */
  settle(token: string | null): void;
  notes(userId?: string): StoredNote[];
  /** Drops what is noted of a draft's own row (its fields, its Submit): the draft is being discarded. */
  forget(draftId: string): void;
  clear(): void;
};

function keyOf(entry: JournalNote): string {
  return entry.kind === 'fields' || entry.kind === 'queued' ? `${entry.kind}:${entry.draftId}` : `${entry.kind}:${entry.photoId}`;
}

export function createDraftJournal(storage: JournalStorage | null): DraftJournal {
  function read(): StoredNote[] {
    if (!storage) return [];
    try {
      const parsed: unknown = JSON.parse(storage.getItem(DRAFT_JOURNAL_KEY) ?? '[]');
      return Array.isArray(parsed) ? (parsed as StoredNote[]).filter((note) => note && typeof note.key === 'string') : [];
    } catch {
      return [];
    }
  }

  function write(notes: StoredNote[]): boolean {
    if (!storage) return false;
    try {
      if (notes.length === 0) storage.removeItem(DRAFT_JOURNAL_KEY);
      else storage.setItem(DRAFT_JOURNAL_KEY, JSON.stringify(notes));
      return true;
    } catch {
      // Local storage full or refused (private mode): the IndexedDB write goes ahead as before.
      return false;
    }
  }

  return {
    note(entry) {
      if (!storage) return null;
      const key = keyOf(entry);
      const token = crypto.randomUUID();
      // A change after a Submit that did not go (the form said so) means the officer carries on
      // with the draft: that Submit is not made later behind their back.
      const superseded = entry.kind === 'fields' ? `queued:${entry.draftId}` : null;
      // The newest note for a thing replaces the older one, and goes last: notes are applied in order.
      const notes = [...read().filter((note) => note.key !== key && note.key !== superseded), { ...entry, key, token }];
      // The oldest go first: a note that old is one whose write keeps failing, not one in flight.
      while (notes.length > DRAFT_JOURNAL_MAX_NOTES) notes.shift();
      if (JSON.stringify(notes).length > DRAFT_JOURNAL_MAX_CHARS) return null;
      return write(notes) ? token : null;
    },
    settle(token) {
      if (!token) return;
      const notes = read();
      const kept = notes.filter((note) => note.token !== token);
      if (kept.length !== notes.length) write(kept);
    },
    notes: (userId) => read().filter((note) => userId === undefined || note.userId === userId),
    forget(draftId) {
      const notes = read();
      const kept = notes.filter((note) => note.key !== `fields:${draftId}` && note.key !== `queued:${draftId}`);
      if (kept.length !== notes.length) write(kept);
    },
    clear: () => void write([]),
  };
}

/**
 * Notes `entry`, runs the write, and removes the note once the write has committed. A failed write
 * keeps its note: a transaction aborted as the page left fails like any other, and the next start
 * tries again.
 */
export async function journaled<T>(journal: DraftJournal, entry: JournalNote, write: () => Promise<T>): Promise<T> {
  const token = journal.note(entry);
  const result = await write();
  journal.settle(token);
  return result;
}

/** The page's journal, on local storage; none where there is no local storage (the service worker, some private modes). */
export function pageDraftJournal(): DraftJournal {
  let storage: JournalStorage | null = null;
  try {
    if (typeof globalThis.localStorage !== 'undefined') storage = globalThis.localStorage;
  } catch {
    // Safari in some private modes throws on access.
  }
  return createDraftJournal(storage);
}

/**
 * Applies the notes left by writes that never committed: one officer's (a start, a draft opened),
 * or everyone's (sign-out, before they are cleared). Returns how many drafts it put in the outbox.
 * A note that cannot apply (the draft was queued meanwhile, belongs to another officer, or is gone)
 * is dropped; one that fails (storage full) is kept for the next time.
 */
export async function replayDraftJournal(db: LocalDb, journal: DraftJournal, userId?: string): Promise<number> {
  let queued = 0;
  // A Submit goes last, after the fields it submits.
  const notes = journal.notes(userId).sort((a, b) => Number(a.kind === 'queued') - Number(b.kind === 'queued'));
  for (const note of notes) {
    try {
      if (await applyNote(db, note)) queued += note.kind === 'queued' ? 1 : 0;
      journal.settle(note.token);
    } catch (error) {
      if (error instanceof PhotoReadBackError) {
        // A photo never landed: the draft stays in the form, which says so at the next Submit.
        journal.settle(note.token);
      } else {
        console.warn('A change kept on this phone could not be saved yet', error);
      }
    }
  }
  return queued;
}

/** Whether the note was applied; false when it can no longer apply. */
async function applyNote(db: LocalDb, note: StoredNote): Promise<boolean> {
  switch (note.kind) {
    case 'fields':
      // saveDraft itself leaves another officer's draft, and a queued or sent one, alone.
      return saveDraft(db, { ...note.draft, userId: note.userId });
    case 'shots':
    case 'photo-removed':
      return db.transaction('rw', db.drafts, db.photos, async () => {
        const photo = await db.photos.get(note.photoId);
        const draft = photo ? await db.drafts.get(photo.draftId) : undefined;
        if (!photo || !isEditableBy(draft, note.userId)) return false;
        if (note.kind === 'shots') await db.photos.update(note.photoId, { shots: [...note.shots] });
        else await db.photos.delete(note.photoId);
        return true;
      });
    case 'queued':
      return db.transaction('rw', db.drafts, db.photos, async () => {
        const draft = await db.drafts.get(note.draftId);
        // A failed notice queued at or after this Submit was sent and refused since: it stays failed.
        if (!isEditableBy(draft, note.userId) || (draft.state === 'failed' && (draft.queuedAt ?? 0) >= note.at)) return false;
        await queueDraft(db, note.draftId, note.at, note.photoIds);
        return true;
      });
  }
}

function isEditableBy(draft: DraftRecord | undefined, userId: string): draft is DraftRecord {
  return !!draft && draft.userId === userId && EDITABLE_DRAFT_STATES.includes(draft.state);
}

/**
 * 'Discard': the draft, its photos and what is noted of it go together. A note left behind would
 * bring a discarded draft back at the next start (a first change whose write never landed makes
 * its row).
 */
export async function discardDraftAndNotes(db: LocalDb, journal: DraftJournal, id: string): Promise<void> {
  journal.forget(id);
  await discardDraft(db, id);
}

/** Sign-out: what is still noted is saved for its own officer, then the journal goes (a shared phone). */
export async function settleDraftJournalAtSignOut(db: LocalDb, journal: DraftJournal): Promise<void> {
  await replayDraftJournal(db, journal);
  journal.clear();
}
