import { useRef, useState } from 'react';
import { FieldError, Form, Label, Radio, RadioGroup, Text } from 'react-aria-components';
import {
  appealDecisionInputSchema,
  APPEALS_CHARTER,
  charterDecision,
  formatPence,
  parsePounds,
  reducedAmountProblem,
  type Appeal,
  type AppealDecisionInput,
  type AppealOutcome,
  type CharterCase,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useFormSubmit, type Parsed } from '../../../lib/use-form-submit.ts';
import { APPEAL_DECISION_FAILED, decideAppeal } from '../api/appeals.ts';
import { CharterPanel } from './charter-panel.tsx';

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

/**
 * The decision on an open appeal: accept (the charge is cancelled), accept at a reduced amount
 * (it replaces what is due), or reject with reasons (the Single Code: a rejection answers what was
 * raised, in writing); a late appeal not yet considered may also be declined as out of time. The shared schema checks it here as the server will; the server's field
 * messages, if it finds more, are shown beside the same fields and take the focus.
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
  const form = useFormSubmit({
    fallbackMessage: APPEAL_DECISION_FAILED,
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
    async (decision) => onDecided(await decideAppeal(appeal.id, decision)),
  );
  return (
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
          {form.isBusy ? 'Recording...' : 'Record decision'}
        </Button>
      </div>
    </Form>
  );
}
