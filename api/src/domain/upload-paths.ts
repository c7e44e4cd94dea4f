/** A photo's thumbnail has the photo's path with /thumbnail, and the same signature (routes/uploads.ts). */
export function thumbnailUrlOf(photoUrl: string): string {
  const [path, query] = photoUrl.split('?');
  return `${path}/thumbnail${query === undefined ? '' : `?${query}`}`;
}
