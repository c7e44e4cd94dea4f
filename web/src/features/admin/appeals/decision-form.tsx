import { useRef, useState } from 'react';
import { FieldError, Form, Label, Radio, RadioGroup, Text } from 'react-aria-components';
import {
  appealDecisionInputSchema,
  APPEAL_STATUS_LABELS,
  APPEALS_CHARTER,
  charterDecision,
  formatPence,
  parsePounds,
  REDUCED_PAYABLE_DAYS,
  reducedAmountProblem,
  type Appeal,
  type AppealDecisionInput,
  type AppealDecisionPreview,
  type AppealOutcome,
  type CharterCase,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { ConfirmDialog } from '../../../lib/confirm-dialog.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useFormSubmit, type Parsed } from '../../../lib/use-form-submit.ts';
import { APPEAL_DECISION_FAILED, APPEAL_PREVIEW_FAILED, decideAppeal, previewAppealDecision } from '../api/appeals.ts';
import { CharterPanel } from './charter-panel.tsx';
import { DecisionLetterPreview } from './decision-letter-preview.tsx';

const OUTCOME_OPTIONS: ReadonlyArray<{ id: AppealOutcome; label: string }> = [
  { id: 'ACCEPTED', label: 'Accept' },
  { id: 'ACCEPTED_REDUCED', label: 'Accept at a reduced amount' },
  { id: 'REJECTED', label: 'Reject' },
  { id: 'DECLINED_LATE', label: 'Decline as out of time' },
];

/** Declining as out of time is for a late appeal not yet taken into consideration. */
function outcomesFor(appeal: Appeal) {
  const mayDecline = appeal.isLate && appeal.consideredAt === null;
  return OUTCOME_OPTIONS.filter((option) => option.id !== 'DECLINED_LATE' || mayDecline);
}

/** What recording each outcome does to the charge, said before it is recorded. */
function effectOf(decision: AppealDecisionInput): string {
  switch (decision.outcome) {
    case 'ACCEPTED':
      return 'The charge is cancelled.';
    case 'ACCEPTED_REDUCED':
      return `${formatPence(decision.reducedChargePence ?? 0)} replaces what is due for ${REDUCED_PAYABLE_DAYS} days; the way to the independent appeals service is kept.`;
    case 'REJECTED':
      return 'The charge stands; the motorist keeps the way to the independent appeals service.';
    case 'DECLINED_LATE':
      return 'The charge stands as it is.';
  }
}

/**
 * The decision on an open appeal: accept (the charge is cancelled), accept at a reduced amount
 * (it replaces what is due), or reject with reasons (the Single Code: a rejection answers what was
 * raised, in writing); a late appeal not yet considered may also be declined as out of time. The shared schema checks it here as the server will; the server's field
 * messages, if it finds more, are shown beside the same fields and take the focus. A decision
 * cannot be changed, so 'Record decision' first shows what it does and the letter as the server
 * will send it (its preview: the same checks, nothing recorded), and records only once confirmed.
 */
export function DecisionForm({ appeal, onDecided, onStale }: { appeal: Appeal; onDecided: (appeal: Appeal) => void; onStale: () => void }) {
  const [outcome, setOutcome] = useState<AppealOutcome | null>(null);
  const [amount, setAmount] = useState('');
  const [reasons, setReasons] = useState('');
  // The Appeals Charter case followed: it set the outcome and amount, and goes if either is changed.
  const [charterCase, setCharterCase] = useState<CharterCase | null>(null);
  const follow = (id: CharterCase) => {
    const decision = charterDecision(id);
    setCharterCase(id);
    setOutcome(decision.outcome);
    setAmount(decision.outcome === 'ACCEPTED_REDUCED' ? (decision.reducedChargePence / 100).toFixed(2) : '');
  };
  const firstOutcome = useRef<HTMLInputElement>(null);
  /** The decision being confirmed, with what the server says it would record and send. */
  const [confirming, setConfirming] = useState<{ decision: AppealDecisionInput; preview: AppealDecisionPreview } | null>(null);
  const form = useFormSubmit({
    fallbackMessage: APPEAL_PREVIEW_FAILED,
    // Decided meanwhile (by another admin): show the decision that stands.
    onError: (error) => {
      if (error.status === 409) onStale();
    },
  });
  const handleSubmit = form.handle(
    (): Parsed<AppealDecisionInput> => {
      // A radio group is not focusable itself: its first choice takes the focus in its place.
      if (!outcome) {
        firstOutcome.current?.focus();
        return { success: false, fieldErrors: { outcome: 'Choose the outcome' } };
      }
      let reducedChargePence: number | null = null;
      if (outcome === 'ACCEPTED_REDUCED') {
        reducedChargePence = parsePounds(amount);
        if (reducedChargePence === null)
          return { success: false, fieldErrors: { reducedChargePence: 'Enter the reduced amount, like 40 or 40.50' } };
        // The server's rule, checked here too: a reduction is less than the charge, and more than nothing.
        const problem = reducedAmountProblem(reducedChargePence, appeal.chargePence);
        if (problem) return { success: false, fieldErrors: { reducedChargePence: problem } };
      }
      return appealDecisionInputSchema.safeParse({ outcome, reasons, reducedChargePence, charterOutcome: charterCase });
    },
    async (decision) => setConfirming({ decision, preview: await previewAppealDecision(appeal.id, decision) }),
  );

  async function record(decision: AppealDecisionInput) {
    try {
      onDecided(await decideAppeal(appeal.id, decision));
    } catch (error) {
      const failure = toApiError(error, APPEAL_DECISION_FAILED);
      // Decided meanwhile (by another admin): show the decision that stands.
      if (failure.status === 409) {
        setConfirming(null);
        onStale();
        return;
      }
      throw failure;
    }
  }
  return (
    <>
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria" aria-label="Record the decision">
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        <CharterPanel appeal={appeal} following={charterCase} onFollow={follow} />
        {charterCase ? (
          <Alert tone="info">{`Following the Appeals Charter: ${APPEALS_CHARTER[charterCase].label}. Check the proof, then give your reasons.`}</Alert>
        ) : null}
        {form.errors.charterOutcome ? <Alert>{form.errors.charterOutcome}</Alert> : null}
        <RadioGroup
          className="field radio-field"
          value={outcome}
          onChange={(value) => {
            setOutcome(value as AppealOutcome);
            setCharterCase(null);
          }}
          isInvalid={Boolean(form.errors.outcome)}
          isRequired
        >
          <Label className="field__label">Outcome</Label>
          <Text slot="description" className="field__description">
            Accepting cancels the charge. A reduced amount replaces what is due for 14 days, with the way to the independent service kept.
            Rejecting needs your reasons.
            {appeal.isLate && appeal.consideredAt === null ? ' Declining as out of time leaves the charge as it stands.' : ''}
          </Text>
          <div className="radio-field__options radio-field__options--stacked">
            {outcomesFor(appeal).map((option, index) => (
              <Radio key={option.id} value={option.id} className="radio-field__option" inputRef={index === 0 ? firstOutcome : undefined}>
                <span className="radio-field__dot" aria-hidden="true" />
                {option.label}
              </Radio>
            ))}
          </div>
          <FieldError className="field__error">{form.errors.outcome}</FieldError>
        </RadioGroup>
        {outcome === 'ACCEPTED_REDUCED' ? (
          <TextField
            label="Reduced amount (£)"
            name="reducedChargePence"
            inputMode="decimal"
            value={amount}
            onChange={(value) => {
              setAmount(value);
              setCharterCase(null);
            }}
            description={
              appeal.chargePence === null
                ? 'What the motorist now owes, in place of the charge'
                : `What the motorist now owes, in place of the charge of ${formatPence(appeal.chargePence)}: less than that`
            }
            errorMessage={form.errors.reducedChargePence}
            isRequired
          />
        ) : null}
        <TextField
          label="Reasons"
          name="reasons"
          isMultiline
          rows={6}
          value={reasons}
          onChange={setReasons}
          description="The letter gives them to the motorist as written. Required to reject: answer each point they raised."
          errorMessage={form.errors.reasons}
          isRequired={outcome === 'REJECTED'}
        />
        <div className="form-actions">
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Preparing the letter...' : 'Record decision'}
          </Button>
        </div>
      </Form>
      {confirming ? (
        <ConfirmDialog
          isOpen
          size="large"
          title={`Record the decision on ${appeal.reference}?`}
          onClose={() => setConfirming(null)}
          cancelLabel="Keep the appeal open"
          confirmLabel="Record decision"
          busyLabel="Recording..."
          onConfirm={() => record(confirming.decision)}
          message={
            <>
              <p>
                Outcome: <strong>{APPEAL_STATUS_LABELS[confirming.preview.outcome]}</strong>. {effectOf(confirming.decision)}
              </p>
              <p>
                {confirming.preview.emailTo
                  ? `The letter below is emailed to ${confirming.preview.emailTo}.`
                  : 'There is no email address: once recorded, download the letter below and post it.'}{' '}
                A recorded decision cannot be changed.
              </p>
            </>
          }
          details={
            confirming.preview.letter ? (
              <DecisionLetterPreview letter={confirming.preview.letter} />
            ) : (
              <Alert tone="info">No letter is made: the operator’s terms were not set when this notice was issued.</Alert>
            )
          }
        />
      ) : null}
    </>
  );
}
