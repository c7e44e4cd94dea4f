import { useEffect, useRef, useState } from 'react';

/**
 * Object URLs for the draft's photo Blobs, keyed by photo id, for PhotoChecklist's previewUrl.
 * Made once per set of photos and revoked when it changes or the step unmounts, so previews of
 * four 0.5 MB photos do not pile up in memory while the officer moves between steps.
 */
export function usePhotoPreviewUrls(photos: ReadonlyArray<{ id: string; blob: Blob }>): Record<string, string> {
  const [urls, setUrls] = useState<Record<string, string>>({});
  const photosRef = useRef(photos);
  photosRef.current = photos;
  const key = photos.map((photo) => photo.id).join('\n');

  useEffect(() => {
    const created = Object.fromEntries(photosRef.current.map((photo) => [photo.id, URL.createObjectURL(photo.blob)]));
    setUrls(created);
    return () => {
      for (const url of Object.values(created)) URL.revokeObjectURL(url);
    };
  }, [key]);

  return urls;
}
