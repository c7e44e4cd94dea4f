/**
 * Cache Storage name of evidence images; the service worker fills it and the page clears it on
 * logout, because evidence is personal data that must not outlive the session on a shared phone.
 */
export const EVIDENCE_CACHE_NAME = 'evidence-images';
