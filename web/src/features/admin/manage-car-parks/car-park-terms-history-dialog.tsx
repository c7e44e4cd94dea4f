import { CAR_PARK_TERMS_HISTORY_LIMIT, type CarPark } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { CAR_PARK_TERMS_HISTORY_FAILED, getCarParkTermsHistory } from '../api/car-parks.ts';
import { TermsChangeList } from '../components/terms-change-list.tsx';
import { shownTermsValue, termsFieldLabel } from './car-park-terms.ts';

/**
 * Every change to a car park's terms (charge, discount, signage, land, stay rules), newest first,
 * with when and by whom: what the notices issued here were printed with at any time.
 */
export function CarParkTermsHistoryDialog({ carPark, onClose }: { carPark: CarPark; onClose: () => void }) {
  const history = useAsync(() => getCarParkTermsHistory(carPark.id), [carPark.id], CAR_PARK_TERMS_HISTORY_FAILED);
  return (
    <ModalDialog title={`Terms history: ${carPark.name}`} isOpen onClose={onClose} size="large">
      <div className="modal__body">
        {history.error ? <Alert>{history.error.message}</Alert> : null}
        {history.data ? (
          <>
            <TermsChangeList changes={history.data.changes} fieldLabel={termsFieldLabel} shownValue={shownTermsValue} />
            {history.data.hasMore ? <p className="muted">{`Only the latest ${CAR_PARK_TERMS_HISTORY_LIMIT} changes are shown.`}</p> : null}
          </>
        ) : history.isLoading ? (
          <Spinner />
        ) : null}
      </div>
      <div className="modal__actions">
        <Button onPress={onClose}>Close</Button>
      </div>
    </ModalDialog>
  );
}
