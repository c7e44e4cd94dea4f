import { useId, type RefObject } from 'react';
import { Camera, ImagePlus } from 'lucide-react';
import { MAX_IMAGES_PER_PCN, MIN_EVIDENCE_IMAGES, SCREEN_TEXTS } from '@parkpatrol/shared';
import { PhotoChecklist, takeFiles } from '../evidence/photo-checklist.tsx';
import type { ChecklistPhoto } from '../evidence/photo-checklist-rules.ts';
import { usePhotoPreviewUrls } from '../evidence/use-photo-preview-urls.ts';
import { countImages, type PcnDraft } from '../pcn-draft.ts';

type Props = {
  draft: PcnDraft;
  /** The step's problem, shown by the wizard beside its actions; here it only marks the inputs. */
  hasError: boolean;
  /** Photos still being compressed and stored on the phone. */
  pendingPhotos: number;
  inputRef: RefObject<HTMLElement | null>;
  /** `shots`: what the photos show, when taken from a checklist row. */
  onAddPhotos: (files: File[], shots?: string[]) => void;
  onRemovePhoto: (photoId: string) => void;
  onRemoveExistingImage: (imageId: string) => void;
  onChangeShots: (photoId: string, shots: string[]) => void;
  onChangeChecklistWaived: (isWaived: boolean) => void;
  /** Id of the wizard's problem text, to describe the inputs by it. */
  problemId?: string;
};

export function EvidenceStep({
  draft,
  hasError,
  pendingPhotos,
  inputRef,
  onAddPhotos,
  onRemovePhoto,
  onRemoveExistingImage,
  onChangeShots,
  onChangeChecklistWaived,
  problemId,
}: Props) {
  const countId = useId();
  const count = countImages(draft);
  const previewUrls = usePhotoPreviewUrls(draft.photos);
  const existingIds = new Set(draft.existingImages.map((image) => image.id));
  const photos: ChecklistPhoto[] = [
    ...draft.existingImages.map((image) => ({
      id: image.id,
      name: image.fileName,
      previewUrl: image.url,
      shots: image.shots ?? [],
      isReadOnly: true,
    })),
    ...draft.photos.map((photo) => ({ id: photo.id, name: photo.name, previewUrl: previewUrls[photo.id] ?? null, shots: photo.shots })),
  ];
  const describedBy = [countId, hasError ? problemId : undefined].filter(Boolean).join(' ');

  return (
    <>
      <p>{SCREEN_TEXTS.evidenceInstructions}</p>
      <p id={countId} className="photo-count" aria-live="polite">
        {`${count} of at least ${MIN_EVIDENCE_IMAGES} photos (at most ${MAX_IMAGES_PER_PCN})`}
        {pendingPhotos > 0 ? ` · Preparing ${pendingPhotos} ${pendingPhotos === 1 ? 'photo' : 'photos'}…` : ''}
      </p>
      <PhotoChecklist
        offenceType={draft.offenceType}
        photos={photos}
        onTakeShot={(shot, files) => onAddPhotos(files, [shot])}
        onChangeShots={onChangeShots}
        onRemovePhoto={(photo) => (existingIds.has(photo.id) ? onRemoveExistingImage(photo.id) : onRemovePhoto(photo.id))}
        continueWithoutMissing={draft.checklistWaived}
        onChangeContinueWithoutMissing={onChangeChecklistWaived}
      />
      <div className="photo-actions">
        {/* More than the checklist asks (a second angle), or before an offence is known. */}
        <label className="button button--secondary file-button">
          <Camera aria-hidden="true" size={20} />
          Take another photo
          <input
            ref={inputRef as RefObject<HTMLInputElement>}
            type="file"
            accept="image/*"
            capture="environment"
            onChange={(event) => {
              const files = takeFiles(event);
              if (files.length) onAddPhotos(files);
            }}
            aria-describedby={describedBy}
            aria-invalid={hasError ? true : undefined}
          />
        </label>
        {/* Photos taken earlier: then one tap on the shot each shows, in the list above. */}
        <label className="button button--secondary file-button">
          <ImagePlus aria-hidden="true" size={20} />
          Choose photos
          <input
            type="file"
            accept="image/*"
            multiple
            onChange={(event) => {
              const files = takeFiles(event);
              if (files.length) onAddPhotos(files);
            }}
            aria-describedby={describedBy}
          />
        </label>
      </div>
    </>
  );
}
