import { useCallback, useEffect, useId, useState } from 'react';
import { TriangleAlert } from 'lucide-react';
import { Button } from '../../lib/button.tsx';
import { readStoragePersisted, requestPersistentStorage } from '../../lib/local-db/persistent-storage.ts';
import { OUTBOX_TEXTS } from './outbox-texts.ts';

/**
 * Whether the browser has agreed to keep this app's storage: true, false, or null until it has
 * said. Read again when the page becomes visible (the officer may have added the app to the Home
 * Screen meanwhile, which is what makes Safari keep it).
 */
export function useStoragePersisted(): { persisted: boolean | null; ask: () => Promise<void>; refused: boolean } {
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    let live = true;
    const read = () => void readStoragePersisted().then((value) => live && setPersisted(value));
    read();
    document.addEventListener('visibilitychange', read);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', read);
    };
  }, []);
  const ask = useCallback(async () => {
    // Firefox asks the officer, and only in answer to a tap: hence a button, not only the request at sign-in.
    const granted = await requestPersistentStorage();
    setPersisted(granted);
    setRefused(!granted);
  }, []);
  return { persisted, ask, refused };
}

/**
 * Shown beside the outbox while notices are unsent and the browser has not agreed to keep our
 * storage: under storage pressure (and in Safari after seven days without a visit) it may delete
 * IndexedDB, and the notices with it. One line in plain words on the phone's narrow screen; 'Why?'
 * opens the explanation and what to do about it.
 */
export function StorageWarning({
  unsentCount,
  persisted,
  refused = false,
  onAsk,
}: {
  unsentCount: number;
  persisted: boolean | null;
  refused?: boolean;
  onAsk?: () => void;
}) {
  const [isOpen, setOpen] = useState(false);
  const explanationId = useId();
  if (unsentCount === 0 || persisted !== false) return null;
  return (
    <div className="storage-warning" role="note" aria-label={OUTBOX_TEXTS.storageWarningLabel}>
      <p className="storage-warning__line">
        <TriangleAlert aria-hidden="true" size={18} className="storage-warning__icon" />
        <span>{OUTBOX_TEXTS.storageAtRisk(unsentCount)}</span>
        <button
          type="button"
          className="storage-warning__why"
          aria-expanded={isOpen}
          aria-controls={explanationId}
          onClick={() => setOpen((open) => !open)}
        >
          {OUTBOX_TEXTS.storageWhy}
        </button>
      </p>
      <div id={explanationId} className="storage-warning__explanation" hidden={!isOpen}>
        <p>{OUTBOX_TEXTS.storageNotKept(unsentCount)}</p>
        <p>{refused ? OUTBOX_TEXTS.storageRefused : OUTBOX_TEXTS.storageAdvice}</p>
        {onAsk && !refused ? (
          <Button variant="secondary" onPress={onAsk}>
            {OUTBOX_TEXTS.storageKeep}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
