import { API_URL } from '../config/env.ts';

/**
 * A file the API names by its address under /api (the operator's logo): the same file under the
 * API's address as this build knows it, which may be another origin than /api.
 */
export function apiAssetUrl(path: string): string {
  return `${API_URL}${path.replace(/^\/api(?=\/)/, '')}`;
}
