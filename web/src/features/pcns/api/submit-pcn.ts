import { ERROR_MESSAGES, type Pcn } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';
import { buildPcnFormData, deviceTimeHeader } from '../../../lib/evidence-multipart.ts';
import type { PcnDraft } from '../pcn-draft.ts';

/** The multipart body of PUT /pcns/{id} for an edit draft (new notices are sent by the outbox). */
export function editBodyOf(draft: PcnDraft): FormData {
  return buildPcnFormData({
    fields: draft,
    photos: draft.photos.map((photo) => ({ ...photo, file: photo.blob })),
    // An edit never moves the time the notice was issued; the first sighting is the officer's own.
    evidence: { ...draft, issuedAt: null },
    removeImageIds: draft.removeImageIds,
  });
}

/**
 * Sends an edit of a PCN already on the server. Edits go online only: they change a notice an
 * admin may be reviewing, so the officer should see at once whether it took (decision 0009).
 */
export function updatePcn(draft: PcnDraft & { pcnId: string }): Promise<Pcn> {
  return apiClient.call('PUT /pcns/:id', {
    params: { id: draft.pcnId },
    body: editBodyOf(draft),
    headers: deviceTimeHeader(),
    fallbackMessage: ERROR_MESSAGES.updatePcn,
  });
}
