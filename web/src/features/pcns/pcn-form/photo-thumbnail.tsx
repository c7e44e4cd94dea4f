import { useEffect, useState } from 'react';
import { PREVIEW_THUMBNAIL_PX } from '@parkpatrol/shared';

/** An object URL for a Blob that lives exactly as long as the component showing it. */
function useObjectUrl(blob: Blob): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

export function BlobThumbnail({ blob, alt }: { blob: Blob; alt: string }) {
  const url = useObjectUrl(blob);
  return url ? (
    <img src={url} alt={alt} width={PREVIEW_THUMBNAIL_PX} height={PREVIEW_THUMBNAIL_PX} />
  ) : (
    <span className="preview__placeholder" />
  );
}

export function UrlThumbnail({ url, alt }: { url: string; alt: string }) {
  return <img src={url} alt={alt} width={PREVIEW_THUMBNAIL_PX} height={PREVIEW_THUMBNAIL_PX} loading="lazy" />;
}
