import { DEVICE_TIME_HEADER, ERROR_MESSAGES, PCN_MULTIPART_FIELDS, type Pcn } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';
import { observedAtOf, type PcnDraft } from '../pcn-draft.ts';

/**
 * The multipart body of POST /pcns and PUT /pcns/{id} for a draft. New notices are sent by the
 * outbox (features/outbox builds the same fields from the stored draft); this one serves edits.
 */
export function buildPcnFormData(draft: PcnDraft): FormData {
  const form = new FormData();
  form.append('vehicleRegistration', draft.vehicleRegistration.trim());
  form.append('carParkId', draft.carParkId);
  form.append('offenceType', draft.offenceType);
  form.append('description', draft.description.trim());
  form.append('location', draft.location.trim());
  if (!draft.pcnId) form.append('observedAt', observedAtOf(draft));
  for (const photo of draft.photos) {
    form.append(PCN_MULTIPART_FIELDS.images, photo.blob, photo.name);
    form.append(PCN_MULTIPART_FIELDS.imageTakenAt, photo.takenAt ?? '');
    form.append(PCN_MULTIPART_FIELDS.imageTakenAtSource, photo.takenAt ? (photo.takenAtSource ?? '') : '');
    form.append(PCN_MULTIPART_FIELDS.imageSha256, photo.sha256 ?? '');
  }
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
    headers: { [DEVICE_TIME_HEADER]: new Date().toISOString() },
    fallbackMessage: ERROR_MESSAGES.updatePcn,
  });
}
