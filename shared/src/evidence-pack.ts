/** The evidence pack for appeals: GET /pcns/{id}/evidence-pack, admins only. */

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
