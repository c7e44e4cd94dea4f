/**
 * The evidence pack for appeals, admins only: asked for (POST /pcns/{id}/evidence-packs), made by
 * a job, followed (GET /pcns/{id}/evidence-packs/{packId}) and downloaded once READY
 * (GET /pcns/{id}/evidence-packs/{packId}/file).
 */

/** The file name, the same in the API's Content-Disposition and in the browser's save. */
export function evidencePackFileName(pcnNumber: string): string {
  return `PCN-${pcnNumber}-evidence-pack.pdf`;
}

export const EVIDENCE_PACK_TEXTS = {
  download: 'Download evidence pack',
  preparing: 'Preparing evidence pack...',
  downloaded: 'Evidence pack downloaded.',
  failed: 'Failed to prepare the evidence pack',
} as const;

export const EVIDENCE_PACK_STATES = ['WAITING', 'MAKING', 'READY', 'FAILED'] as const;
export type EvidencePackState = (typeof EVIDENCE_PACK_STATES)[number];

/**
 * How long a made pack can be downloaded again. A pack is a copy of the notice's evidence as it
 * stood, not a record (the record is the notice, its photos and the documents as sent): the daily
 * retention run removes packs older than this.
 */
export const EVIDENCE_PACK_KEPT_HOURS = 24;

export type EvidencePack = {
  id: string;
  pcnId: string;
  state: EvidencePackState;
  /** Why it could not be made, when FAILED: said to the admin as it stands. */
  error: string | null;
  /** The PDF's SHA-256 (hex), once READY: the download carries it as Repr-Digest. */
  sha256: string | null;
  createdByName: string;
  createdAt: string;
  finishedAt: string | null;
};
