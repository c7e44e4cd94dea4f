import type { PcnDraft } from '../pcn-draft.ts';

/**
 * Where drafts live between renders and screens. This in-memory version keeps a draft while the
 * app is open; the offline layer swaps it for IndexedDB (Dexie) so a killed app loses nothing.
 * Keys: 'new' for the notice being created, the PCN id for an edit.
 */
export type DraftStore = {
  load(key: string): Promise<PcnDraft | null>;
  save(key: string, draft: PcnDraft): Promise<void>;
  remove(key: string): Promise<void>;
};

export function createMemoryDraftStore(): DraftStore {
  const drafts = new Map<string, PcnDraft>();
  return {
    load: async (key) => drafts.get(key) ?? null,
    save: async (key, draft) => void drafts.set(key, draft),
    remove: async (key) => void drafts.delete(key),
  };
}

export const draftStore: DraftStore = createMemoryDraftStore();

export const NEW_DRAFT_KEY = 'new';
export function editDraftKey(pcnId: string): string {
  return `edit:${pcnId}`;
}
