import { useId, useState } from 'react';
import { isFinalStatus, PCN_STATUS_LABELS, transitionsForAll, type BulkResult, type PcnStatus } from '@parkpatrol/shared';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { bulkChangePcnStatus, PCN_BULK_FAILED, PCN_BULK_UNDO_FAILED, undoBulkPcnStatus, type CancellationChoice } from '../api/pcns.ts';
import { CancellationReasonFields, cancellationErrors, NO_CANCELLATION } from './cancellation-reason-fields.tsx';
import { ConfirmDialog } from '../../../lib/confirm-dialog.tsx';
import type { Notice } from '../components/dismissible-alert.tsx';
import { ACTION_LABELS } from './status-actions.ts';

type Props = {
  selected: ReadonlyMap<string, { status: PcnStatus }>;
  /** The answer for each PCN, what was said of it, and the status they were moved to (for its Undo). */
  onDone: (results: BulkResult[], summary: Notice, status: PcnStatus) => void;
};

const plural = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'PCN' : 'PCNs'}`;

/**
 * 'Change status' for the selected PCNs: only the moves every one of them
 * allows are offered, the admin's note goes with each, and the server answers for each PCN.
 */
export function BulkStatusChange({ selected, onDone }: Props) {
  const offered = transitionsForAll([...selected.values()].map((pcn) => pcn.status));
  const [chosen, setChosen] = useState<PcnStatus | null>(null);
  const [isConfirming, setConfirming] = useState(false);
  const [notes, setNotes] = useState('');
  const [cancellation, setCancellation] = useState<CancellationChoice>(NO_CANCELLATION);
  const [cancellationProblems, setCancellationProblems] = useState<{ reason?: string; note?: string }>({});
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const to = chosen && offered.includes(chosen) ? chosen : null;
  const count = selected.size;

  async function apply() {
    if (!to) return;
    if (to === 'CANCELLED') {
      const problems = cancellationErrors(cancellation);
      setCancellationProblems(problems);
      if (problems.reason || problems.note) return;
    }
    setBusy(true);
    setError(null);
    try {
      const { results } = await bulkChangePcnStatus([...selected.keys()], to, notes, cancellation);
      const failed = results.filter((result) => !result.success).length;
      onDone(
        results,
        {
          tone: failed ? 'error' : 'success',
          text: `${plural(results.length - failed)} moved to ${PCN_STATUS_LABELS[to]}${failed ? `; ${plural(failed)} could not be changed (see the results below)` : ''}.`,
        },
        to,
      );
      setConfirming(false);
      setNotes('');
      setChosen(null);
      setCancellation(NO_CANCELLATION);
    } catch (e) {
      setError(toApiError(e, PCN_BULK_FAILED).message);
    } finally {
      setBusy(false);
    }
  }

  if (offered.length === 0) {
    return <p className="muted">No status change is possible for all of the selected PCNs together.</p>;
  }
  return (
    <div className="bulk-action">
      <SelectField
        label="Change status to"
        placeholder="Choose a status"
        options={offered.map((status) => ({ id: status, label: PCN_STATUS_LABELS[status] }))}
        value={to}
        onChange={(value) => setChosen(value as PcnStatus | null)}
      />
      <Button onPress={() => setConfirming(true)} isDisabled={!to}>
        Change status…
      </Button>
      {isConfirming && to ? (
        <ConfirmDialog
          title={`Move ${plural(count)} to ${PCN_STATUS_LABELS[to]}?`}
          isOpen
          onClose={() => {
            setConfirming(false);
            setError(null);
          }}
          confirmLabel={`${ACTION_LABELS[to]} (${plural(count)})`}
          cancelLabel="Keep them as they are"
          busyLabel="Changing…"
          isBusy={isBusy}
          error={error}
          onConfirm={() => void apply()}
          message={
            <>
              <p>
                Each PCN is checked and changed on its own; the results list any that could not be. The change and your note are kept in
                each PCN&apos;s audit trail.
              </p>
              <TextField
                label="Admin notes"
                description="Saved with each change and shown to the officers on their PCNs."
                isMultiline
                rows={3}
                value={notes}
                onChange={setNotes}
                isDisabled={isBusy}
              />
              {to === 'CANCELLED' ? (
                <CancellationReasonFields
                  value={cancellation}
                  onChange={(value) => {
                    setCancellation(value);
                    setCancellationProblems({});
                  }}
                  errors={cancellationProblems}
                  isDisabled={isBusy}
                />
              ) : null}
            </>
          }
        />
      ) : null}
    </div>
  );
}

/**
 * Beside a bulk change's results, while they are on screen: Undo moves each PCN it changed back
 * to the status it had (the server checks each against its history; one changed since is
 * reported and left as it is). A final status cannot be left, so a change to one has no Undo:
 * that is said where the button would be, before anything is pressed.
 */
export function BulkStatusUndo({
  status,
  results,
  onUndone,
}: {
  status: PcnStatus;
  results: readonly BulkResult[];
  /** The undo's answer for each PCN, or null when it did not reach the server (the results and their Undo stay). */
  onUndone: (results: BulkResult[] | null, summary: Notice) => void;
}) {
  const [isBusy, setBusy] = useState(false);
  const hintId = useId();
  const changed = results.filter((result) => result.success).map((result) => result.id);
  if (changed.length === 0) return null;
  if (isFinalStatus(status)) {
    return (
      <p className="muted bulk-undo__hint">{`No undo: ${PCN_STATUS_LABELS[status]} is a final status, so ${changed.length === 1 ? 'this PCN cannot be moved back' : `these ${plural(changed.length)} cannot be moved back`}.`}</p>
    );
  }

  async function undo() {
    setBusy(true);
    try {
      const answer = await undoBulkPcnStatus(changed, status);
      const failed = answer.results.filter((result) => !result.success).length;
      const done = `Undone: ${plural(answer.results.length - failed)} back to the status each had`;
      onUndone(answer.results, {
        tone: failed ? 'error' : 'success',
        text: failed ? `${done}; ${plural(failed)} could not be moved back (see the results below).` : `${done}.`,
      });
    } catch (e) {
      onUndone(null, { tone: 'error', text: toApiError(e, PCN_BULK_UNDO_FAILED).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="bulk-undo">
      <p id={hintId} className="muted bulk-undo__hint">
        {`Moves the ${plural(changed.length)} changed back to the status each had; any changed since are left as they are.`}
      </p>
      <Button variant="secondary" onPress={() => void undo()} isDisabled={isBusy} aria-describedby={hintId}>
        {isBusy ? 'Undoing…' : 'Undo status change'}
      </Button>
    </div>
  );
}
