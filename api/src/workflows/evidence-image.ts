import type { AppDeps } from '../app-env.ts';
import { findImageByFileName } from '../repositories/pcn-images.ts';

/** An evidence photo by its stored name, with the notice it belongs to (who may see it is the route's check). */
export function findEvidenceImage(deps: Pick<AppDeps, 'db'>, fileName: string) {
  return findImageByFileName(deps.db, fileName);
}
