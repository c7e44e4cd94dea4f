import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Camera, ImagePlus, Video } from 'lucide-react';
import { MAX_IMAGES_PER_PCN, MIN_EVIDENCE_IMAGES, SCREEN_TEXTS, type PhotoChecklistItem } from '@parkpatrol/shared';
import { Button } from '../../../lib/button.tsx';
import { cameraErrorSentence, cameraSupportHere, cameraUnavailableReason, shotsToWalk } from '../evidence/camera-rules.ts';
import type { CameraView as CameraViewComponent } from '../evidence/camera-view.tsx';
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
  /** The wizard's Next: the camera's last shot goes on to the review once every photo is stored. */
  onNext: () => void;
};

/** What shots a draft's photos show, existing ones first, as the checklist counts them. */
function shotsOf(draft: PcnDraft): Array<{ shots: readonly string[] }> {
  return [...draft.existingImages.map((image) => ({ shots: image.shots ?? [] })), ...draft.photos];
}

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
  onNext,
}: Props) {
  const countId = useId();
  // The camera view is its own chunk, fetched on the first tap on 'Open camera' (decision 0043).
  const [CameraView, setCameraView] = useState<typeof CameraViewComponent | null>(null);
  const [cameraWalk, setCameraWalk] = useState<PhotoChecklistItem[] | null>(null);
  const [cameraProblem, setCameraProblem] = useState<string | null>(null);
  const [isWalkDone, setWalkDone] = useState(false);
  const openCameraRef = useRef<HTMLDivElement>(null);
  const countRef = useRef<HTMLParagraphElement>(null);
  const walk = shotsToWalk(draft.offenceType, shotsOf(draft));

  // The last shutter tap is also Next: once its photo is stored and nothing is missing, the review.
  useEffect(() => {
    if (!isWalkDone || pendingPhotos > 0) return;
    setWalkDone(false);
    if (countImages(draft) >= MIN_EVIDENCE_IMAGES && shotsToWalk(draft.offenceType, shotsOf(draft)).length === 0) onNext();
    // Not enough yet (an offence with fewer shots than the four photos): the count says what is.
    else countRef.current?.focus();
  }, [isWalkDone, pendingPhotos, draft, onNext]);

  /** The view was removed while open: focus goes back to its button, not to the top of the page. */
  function closeCamera(sentence: string | null = null) {
    setCameraWalk(null);
    if (sentence) setCameraProblem(sentence);
    requestAnimationFrame(() => openCameraRef.current?.querySelector('button')?.focus());
  }

  function openCamera() {
    const reason = cameraUnavailableReason(cameraSupportHere());
    setCameraProblem(reason);
    if (reason) return;
    if (CameraView) {
      setCameraWalk(walk);
      return;
    }
    import('../evidence/camera-view.tsx').then(
      (module) => {
        setCameraView(() => module.CameraView);
        setCameraWalk(walk);
      },
      (error: unknown) => setCameraProblem(cameraErrorSentence(error)),
    );
  }
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
      <p id={countId} ref={countRef} tabIndex={-1} className="photo-count" aria-live="polite">
        {`${count} of at least ${MIN_EVIDENCE_IMAGES} photos (at most ${MAX_IMAGES_PER_PCN})`}
        {pendingPhotos > 0 ? ` · Preparing ${pendingPhotos} ${pendingPhotos === 1 ? 'photo' : 'photos'}…` : ''}
      </p>
      {walk.length > 0 ? (
        <div className="camera-open" ref={openCameraRef}>
          {/* The shots in order, one tap each; each row's 'Take photo' stays for a phone whose camera cannot open here. */}
          <Button onPress={openCamera}>
            <Video aria-hidden="true" size={20} />
            Open camera
          </Button>
          {cameraProblem ? (
            <p className="camera-open__problem" role="status">
              {cameraProblem}
            </p>
          ) : null}
        </div>
      ) : null}
      {CameraView && cameraWalk ? (
        <CameraView
          walk={cameraWalk}
          onCapture={(file, shot) => onAddPhotos([file], [shot])}
          onDone={() => {
            setCameraWalk(null);
            setWalkDone(true);
          }}
          onClose={() => closeCamera()}
          onUnavailable={closeCamera}
        />
      ) : null}
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
