import { paths } from '../../../config/paths.ts';

export const REVIEW_PARAM = 'review';

/** The URL of one PCN's review view inside Manage PCNs (the admin dashboard links straight to it). */
export function reviewHref(pcnId: string): string {
  return `${paths.admin.pcns}?${REVIEW_PARAM}=${encodeURIComponent(pcnId)}`;
}
