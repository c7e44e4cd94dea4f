import { useId, type ChangeEvent, type RefObject } from 'react';
import { Camera, ImagePlus, X } from 'lucide-react';
import { MAX_IMAGES_PER_PCN, MIN_EVIDENCE_IMAGES, SCREEN_TEXTS } from '@parkpatrol/shared';
import { PhotoChecklist } from '../evidence/photo-checklist.tsx';
import type { ChecklistPhoto } from '../evidence/photo-checklist-rules.ts';
import { usePhotoPreviewUrls } from '../evidence/use-photo-preview-urls.ts';
import { countImages, type PcnDraft } from '../pcn-draft.ts';
import { BlobThumbnail, UrlThumbnail } from './photo-thumbnail.tsx';

type Props = {
  draft: PcnDraft;
  error: string | undefined;
  /** Photos still being compressed and stored on the phone. */
  pendingPhotos: number;
  inputRef: RefObject<HTMLElement | null>;
  onAddPhotos: (files: File[]) => void;
  onRemovePhoto: (photoId: string) => void;
  onRemoveExistingImage: (imageId: string) => void;
  /** The checklist's own problem (missing shots), shown with the checklist. */
  checklistError: string | null;
  onChangeShots: (photoId: string, shots: string[]) => void;
  onChangeChecklistWaived: (isWaived: boolean) => void;
};

export function EvidenceStep({
  draft,
  error,
  pendingPhotos,
  inputRef,
  onAddPhotos,
  onRemovePhoto,
  onRemoveExistingImage,
  checklistError,
  onChangeShots,
  onChangeChecklistWaived,
}: Props) {
  const errorId = useId();
  const countId = useId();
  const count = countImages(draft);
  const previewUrls = usePhotoPreviewUrls(draft.photos);
  const checklistPhotos: ChecklistPhoto[] = [
    ...draft.existingImages.map((image) => ({ id: image.id, name: image.fileName, previewUrl: image.url, shots: image.shots ?? [], isReadOnly: true })),
    ...draft.photos.map((photo) => ({ id: photo.id, name: photo.name, previewUrl: previewUrls[photo.id] ?? null, shots: photo.shots })),
  ];
  const describedBy = [countId, error ? errorId : ''].filter(Boolean).join(' ');

  function handleFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    // Clear the input so choosing the same file again (after removing it) fires a change.
    event.target.value = '';
    if (files.length) onAddPhotos(files);
  }

  return (
    <>
      <p>{SCREEN_TEXTS.evidenceInstructions}</p>
      <div className="photo-actions">
        {/* A native file input is the only way to open the camera on every phone browser. */}
        <label className="button button--primary file-button">
          <Camera aria-hidden="true" size={20} />
          Take photo
          <input
            ref={inputRef as RefObject<HTMLInputElement>}
            type="file"
            accept="image/*"
            capture="environment"
            onChange={handleFiles}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
          />
        </label>
        <label className="button button--secondary file-button">
          <ImagePlus aria-hidden="true" size={20} />
          Choose photos
          <input type="file" accept="image/*" multiple onChange={handleFiles} aria-describedby={describedBy} />
        </label>
      </div>
      <p id={countId} className="photo-count" aria-live="polite">
        {`${count} of at least ${MIN_EVIDENCE_IMAGES} photos (at most ${MAX_IMAGES_PER_PCN})`}
        {pendingPhotos > 0 ? ` · Preparing ${pendingPhotos} ${pendingPhotos === 1 ? 'photo' : 'photos'}…` : ''}
      </p>
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      {count > 0 ? (
        <ul className="previews" aria-label="Photos">
          {draft.existingImages.map((image, index) => (
            <li key={image.id} className="preview">
              <UrlThumbnail url={image.url} alt={`Photo ${index + 1}`} />
              <button type="button" className="preview__remove" aria-label={`Remove photo ${index + 1}`} onClick={() => onRemoveExistingImage(image.id)}>
                <X aria-hidden="true" size={20} />
              </button>
            </li>
          ))}
          {draft.photos.map((photo, index) => {
            const number = draft.existingImages.length + index + 1;
            return (
              <li key={photo.id} className="preview">
                <BlobThumbnail blob={photo.blob} alt={`Photo ${number}: ${photo.name}`} />
                <button type="button" className="preview__remove" aria-label={`Remove photo ${number}: ${photo.name}`} onClick={() => onRemovePhoto(photo.id)}>
                  <X aria-hidden="true" size={20} />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <PhotoChecklist
        offenceType={draft.offenceType}
        photos={checklistPhotos}
        onChangeShots={onChangeShots}
        continueWithoutMissing={draft.checklistWaived}
        onChangeContinueWithoutMissing={onChangeChecklistWaived}
        errorMessage={checklistError}
      />
    </>
  );
}
