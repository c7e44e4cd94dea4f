import { useEffect, useId, useRef, useState } from 'react';
import { Camera, X } from 'lucide-react';
import type { PhotoChecklistItem } from '@parkpatrol/shared';
import { Button } from '../../../lib/button.tsx';
import { Dialog } from '../../../lib/dialog.tsx';
import { fitWithin, PHOTO_JPEG_QUALITY, PHOTO_MAX_SIDE_PX } from '../../../lib/photos/photo-fit.ts';
import { cameraErrorSentence, nextShot, shotPrompt } from './camera-rules.ts';
import './camera-view.css';

type Props = {
  /** The shots to take, in order (shotsToWalk); at least one. */
  walk: readonly PhotoChecklistItem[];
  /** One frame, as a JPEG file, and the shot it shows. */
  onCapture: (file: File, shot: string) => void;
  /** The last shot is taken. */
  onDone: () => void;
  /** Closed before the last shot (Close, Escape, the phone locked or another app opened). */
  onClose: () => void;
  /** The camera could not be opened: why, in a sentence. */
  onUnavailable: (sentence: string) => void;
};

/**
 * The in-app camera (docs/decisions/0043-in-app-camera.md): the rear camera's live picture with
 * the checklist's shots one after another, one tap on the shutter each. Loaded only when opened.
 * The camera is released whenever the view closes or the page is hidden.
 */
export function CameraView({ walk, onCapture, onDone, onClose, onUnavailable }: Props) {
  const headingId = useId();
  const hintId = useId();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [index, setIndex] = useState(0);
  const [isReady, setReady] = useState(false);
  const [isCapturing, setCapturing] = useState(false);
  // The latest callbacks, so the stream is opened once per view and not on every render.
  const onUnavailableRef = useRef(onUnavailable);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onUnavailableRef.current = onUnavailable;
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    let stream: MediaStream | null = null;
    let isOpen = true;
    const release = () => stream?.getTracks().forEach((track) => track.stop());
    navigator.mediaDevices
      .getUserMedia({ audio: false, video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } } })
      .then(
        (opened) => {
          stream = opened;
          if (!isOpen) return release();
          const video = videoRef.current;
          if (!video) return release();
          video.srcObject = opened;
          video.play().then(
            () => setReady(true),
            // Playback refused (rare: autoplay rules): the same fallback as no camera.
            (error: unknown) => isOpen && onUnavailableRef.current(cameraErrorSentence(error)),
          );
        },
        (error: unknown) => {
          if (isOpen) onUnavailableRef.current(cameraErrorSentence(error));
        },
      );
    // A phone locked or another app opened: the camera light goes off and the view closes; the
    // shots taken are kept, and opening it again walks the ones still missing.
    const onHidden = () => {
      if (document.visibilityState === 'hidden') onCloseRef.current();
    };
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onHidden);
    return () => {
      isOpen = false;
      release();
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onHidden);
    };
  }, []);

  const shot = walk[index];

  function capture() {
    const video = videoRef.current;
    if (!video || !shot || isCapturing) return;
    const { width, height } = fitWithin(video.videoWidth, video.videoHeight, PHOTO_MAX_SIDE_PX);
    if (width === 0) return;
    // One frame at a time, at most the size compression keeps: the canvas is let go after toBlob.
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d')?.drawImage(video, 0, 0, width, height);
    setCapturing(true);
    canvas.toBlob(
      (blob) => {
        canvas.width = 0;
        canvas.height = 0;
        setCapturing(false);
        if (!blob) return;
        onCapture(new File([blob], `${shot.id}.jpg`, { type: 'image/jpeg', lastModified: Date.now() }), shot.id);
        if (nextShot(walk, index)) setIndex(index + 1);
        else onDone();
      },
      'image/jpeg',
      PHOTO_JPEG_QUALITY,
    );
  }

  return (
    <Dialog isOpen onClose={onClose} className="camera-view" aria-labelledby={headingId} aria-describedby={hintId}>
      <div className="camera-view__body">
        <div className="camera-view__prompt">
          <h2 id={headingId} className="camera-view__title" aria-live="polite">
            {shotPrompt(walk, index)}
          </h2>
          <p id={hintId} className="camera-view__hint">
            {shot?.hint}
          </p>
        </div>
        {/* The live picture; what it shows is said by the prompt above it. */}
        <video ref={videoRef} className="camera-view__video" muted playsInline aria-hidden="true" />
        <div className="camera-view__actions">
          <Button variant="secondary" onPress={onClose}>
            <X aria-hidden="true" size={20} />
            Close camera
          </Button>
          <Button className="camera-view__shutter" isDisabled={!isReady || isCapturing} onPress={capture}>
            <Camera aria-hidden="true" size={24} />
            {shot ? `Capture ${shot.label}` : 'Capture'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
