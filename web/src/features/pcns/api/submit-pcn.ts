import { ERROR_MESSAGES, PCN_MULTIPART_FIELDS, type Pcn } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';
import { appendEvidenceFields, deviceTimeHeader } from '../../../lib/evidence-multipart.ts';
import type { PcnDraft } from '../pcn-draft.ts';

/**
 * The multipart body of PUT /pcns/{id} for an edit draft. New notices are sent by the outbox
 * (features/outbox builds the same fields from the stored draft); this one serves edits.
 */
export function buildPcnFormData(draft: PcnDraft): FormData {
  const form = new FormData();
  form.append('vehicleRegistration', draft.vehicleRegistration.trim());
  form.append('carParkId', draft.carParkId);
  form.append('offenceType', draft.offenceType);
  form.append('description', draft.description.trim());
  form.append('location', draft.location.trim());
  for (const photo of draft.photos) form.append(PCN_MULTIPART_FIELDS.images, photo.blob, photo.name);
  // An edit never moves the time the notice was issued; the first sighting is the officer's own.
  appendEvidenceFields(form, { ...draft, issuedAt: null, photos: draft.photos });
  for (const imageId of draft.removeImageIds) form.append(PCN_MULTIPART_FIELDS.removeImageIds, imageId);
  return form;
}

/**
 * Sends an edit of a PCN already on the server. Edits go online only: they change a notice an
 * admin may be reviewing, so the officer should see at once whether it took (decision 0009).
 */
export function updatePcn(draft: PcnDraft & { pcnId: string }): Promise<Pcn> {
  return apiClient.put<Pcn>(`pcns/${encodeURIComponent(draft.pcnId)}`, {
    body: buildPcnFormData(draft),
    headers: deviceTimeHeader(),
    fallbackMessage: ERROR_MESSAGES.updatePcn,
  });
}
