import { useState, type ReactNode } from 'react';
import { MAX_BULK_ITEMS } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';

type Props = {
  selectedCount: number;
  /** How many rows the filters select, over every page. */
  total: number;
  noun: { one: string; many: string };
  /** Fetches the whole filtered set (GET .../selection) and selects it. */
  onSelectAllMatching: () => Promise<void>;
  onClear: () => void;
  failedMessage: string;
  /** The bulk actions for what is selected. */
  children: ReactNode;
};

const count = (n: number, noun: { one: string; many: string }) => `${n.toLocaleString('en-GB')} ${n === 1 ? noun.one : noun.many}`;

/**
 * Shown while rows are selected: how many, a way to widen the choice from the page to every
 * row the filters select, and the actions that apply to them.
 */
export function SelectionBar({ selectedCount, total, noun, onSelectAllMatching, onClear, failedMessage, children }: Props) {
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (selectedCount === 0) return null;

  async function selectAll() {
    setBusy(true);
    setError(null);
    try {
      await onSelectAllMatching();
    } catch (e) {
      setError(toApiError(e, failedMessage).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="selection-bar" aria-label="Selection">
      <p className="selection-bar__count" role="status">
        {count(selectedCount, noun)} selected
      </p>
      <div className="selection-bar__scope">
        {selectedCount < total && total <= MAX_BULK_ITEMS ? (
          <Button variant="text" onPress={() => void selectAll()} isDisabled={isBusy}>
            {isBusy ? 'Selecting…' : `Select all ${count(total, noun)} matching`}
          </Button>
        ) : selectedCount < total ? (
          <span className="muted">{`Narrow the filters to act on more than ${MAX_BULK_ITEMS.toLocaleString('en-GB')} at once.`}</span>
        ) : null}
        <Button variant="text" onPress={onClear}>
          Clear selection
        </Button>
      </div>
      <div className="selection-bar__actions">{children}</div>
      {error ? <Alert>{error}</Alert> : null}
    </section>
  );
}
