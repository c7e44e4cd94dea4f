import { ERROR_MESSAGES, IDEMPOTENCY_KEY_HEADER, PCN_MULTIPART_FIELDS, type Pcn } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';
import type { PcnDraft } from '../pcn-draft.ts';

/**
 * What submitting a draft led to. Online it is sent at once; the offline layer replaces this
 * function with "queue and return" and answers { status: 'queued' }.
 */
export type SubmitPcnResult = { status: 'sent'; pcn: Pcn } | { status: 'queued'; draftId: string };

/** The multipart body of POST /pcns and PUT /pcns/{id} for a draft. */
export function buildPcnFormData(draft: PcnDraft): FormData {
  const form = new FormData();
  form.append('vehicleRegistration', draft.vehicleRegistration.trim());
  form.append('carParkId', draft.carParkId);
  form.append('offenceType', draft.offenceType);
  form.append('description', draft.description.trim());
  form.append('location', draft.location.trim());
  if (!draft.pcnId) {
    // When the officer saw the car: the first photo's time, else when the draft was started.
    const taken = draft.photos.map((p) => p.takenAt).filter((t): t is string => Boolean(t)).sort();
    form.append('observedAt', taken[0] ?? draft.createdAt);
  }
  for (const photo of draft.photos) {
    form.append(PCN_MULTIPART_FIELDS.images, photo.blob, photo.name);
    form.append(PCN_MULTIPART_FIELDS.imageTakenAt, photo.takenAt ?? '');
  }
  for (const imageId of draft.removeImageIds) form.append(PCN_MULTIPART_FIELDS.removeImageIds, imageId);
  return form;
}

export async function submitPcn(draft: PcnDraft): Promise<SubmitPcnResult> {
  const body = buildPcnFormData(draft);
  if (draft.pcnId) {
    const pcn = await apiClient.put<Pcn>(`pcns/${encodeURIComponent(draft.pcnId)}`, { body, fallbackMessage: ERROR_MESSAGES.updatePcn });
    return { status: 'sent', pcn };
  }
  const pcn = await apiClient.post<Pcn>('pcns', {
    body,
    headers: { [IDEMPOTENCY_KEY_HEADER]: draft.id },
    fallbackMessage: ERROR_MESSAGES.createPcn,
  });
  return { status: 'sent', pcn };
}
