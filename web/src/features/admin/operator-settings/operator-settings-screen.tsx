import { useState } from 'react';
import { Form } from 'react-aria-components';
import {
  APPEALS_SERVICE_LABELS,
  APPEALS_SERVICES,
  COLLECTION_DAY_BOUNDS,
  COLLECTION_SETTING_DEFAULTS,
  formatPence,
  mayChangePaymentDetails,
  operatorTermsInputSchema,
  parsePounds,
  PAYMENT_DETAILS_MESSAGE,
  SCREEN_TEXTS,
  SECTOR_LIMIT_MESSAGES,
  type OperatorSettings,
  type OperatorSettingsResponse,
  type TermsChange,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { useCurrentUser } from '../../../lib/current-user.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import {
  getOperatorSettings,
  OPERATOR_SETTINGS_LOAD_FAILED,
  OPERATOR_SETTINGS_SAVE_FAILED,
  saveOperatorSettings,
} from '../api/settings.ts';
import { TermsChangeList } from '../components/terms-change-list.tsx';
import { OperatorLogoCard } from './operator-logo-card.tsx';
import '../admin.css';

/** Notices, letters and /charge print 'How to pay' in different places: a direction to an address in it is wrong in some of them. */
const HOW_TO_PAY_ADDRESS_HINT =
  'Write any postal address out in full rather than pointing to one "above" or "below": notices, letters and the charge page print this text in different places.';

const APPEALS_OPTIONS = APPEALS_SERVICES.map((id) => ({ id, label: APPEALS_SERVICE_LABELS[id] }));

const FIELD_LABELS: Record<string, string> = {
  creditorName: 'Creditor',
  creditorAddress: 'Postal address',
  creditorPhone: 'Phone',
  creditorEmail: 'Email',
  creditorWebsite: 'Website',
  howToPay: 'How to pay',
  appealsService: 'Independent appeals service',
  appealsServiceContact: "Appeals service's contact details",
  reminderAfterDays: 'Reminder after (days)',
  letterBeforeClaimAfterDays: 'Letter before claim after (days)',
  debtRecoveryFeePence: 'Debt recovery charge',
};

/** The chase's settings as the form holds them (text, as typed) and as the API takes them (numbers; the charge in pence). */
type ChaseValues = { reminderAfterDays: string; letterBeforeClaimAfterDays: string; debtRecoveryFee: string };

function chaseValuesOf(operator: OperatorSettings | null): ChaseValues {
  const chase = operator ?? COLLECTION_SETTING_DEFAULTS;
  return {
    reminderAfterDays: String(chase.reminderAfterDays),
    letterBeforeClaimAfterDays: String(chase.letterBeforeClaimAfterDays),
    debtRecoveryFee: (chase.debtRecoveryFeePence / 100).toFixed(2),
  };
}

/** Whole days as typed, or NaN (which the schema refuses with the field's own message). */
const daysOf = (text: string) => (/^\d{1,4}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/**
 * The operator's terms, set once and printed on every notice: the creditor, how to pay and the
 * independent appeals service (decision 0017). Each save is kept with who made it; notices keep
 * the terms in force when they were issued.
 */
export function OperatorSettingsScreen() {
  const settings = useAsync(getOperatorSettings, [], OPERATOR_SETTINGS_LOAD_FAILED);
  return (
    <div className="page">
      <PageHeading>{SCREEN_TEXTS.operatorSettings}</PageHeading>
      {settings.isLoading && !settings.data ? (
        <p role="status">Loading the operator settings…</p>
      ) : settings.error || !settings.data ? (
        <Alert>{settings.error?.message ?? OPERATOR_SETTINGS_LOAD_FAILED}</Alert>
      ) : (
        <OperatorSettingsBody initial={settings.data} />
      )}
    </div>
  );
}

function OperatorSettingsBody({ initial }: { initial: OperatorSettingsResponse }) {
  const [current, setCurrent] = useState(initial);
  const [saved, setSaved] = useState(false);
  return (
    <>
      {current.operator === null ? (
        <Alert tone="info">Notices cannot be printed until the creditor and the appeals service are set here.</Alert>
      ) : null}
      {saved ? <Alert tone="success">Operator settings saved</Alert> : null}
      <OperatorForm
        operator={current.operator}
        onSaved={(next) => {
          setCurrent(next);
          setSaved(true);
        }}
        onEdit={() => setSaved(false)}
      />
      <OperatorLogoCard logoUrl={current.logoUrl} operatorName={current.operator?.creditorName ?? null} />
      <ChangeHistory changes={current.changes} />
    </>
  );
}

/**
 * The terms' form. How to pay (the bank details every letter prints) is a Super Admin's to change:
 * an Admin sees it read-only, with a note saying why, and saves the rest with it unchanged.
 */
export function OperatorForm({
  operator,
  onSaved,
  onEdit,
}: {
  operator: OperatorSettings | null;
  onSaved: (next: OperatorSettingsResponse) => void;
  onEdit: () => void;
}) {
  const mayChangeHowToPay = mayChangePaymentDetails(useCurrentUser()?.role);
  const [values, setValues] = useState({
    creditorName: operator?.creditorName ?? '',
    creditorAddress: operator?.creditorAddress ?? '',
    creditorPhone: operator?.creditorPhone ?? '',
    creditorEmail: operator?.creditorEmail ?? '',
    creditorWebsite: operator?.creditorWebsite ?? '',
    howToPay: operator?.howToPay ?? '',
    appealsService: operator?.appealsService ?? '',
    appealsServiceContact: operator?.appealsServiceContact ?? '',
    ...chaseValuesOf(operator),
  });
  const form = useFormSubmit({ fallbackMessage: OPERATOR_SETTINGS_SAVE_FAILED });
  const { errors } = form;
  const set = (field: keyof typeof values) => (value: string | null) => {
    onEdit();
    setValues((previous) => ({ ...previous, [field]: value ?? '' }));
  };
  const handleSubmit = form.handle(
    () => {
      const { debtRecoveryFee, ...rest } = values;
      const feePence = debtRecoveryFee.trim() === '' ? 0 : parsePounds(debtRecoveryFee);
      if (feePence === null)
        return { success: false, fieldErrors: { debtRecoveryFeePence: 'Give an amount like 70 or 70.00 (0 for none)' } };
      return operatorTermsInputSchema.safeParse({
        ...rest,
        reminderAfterDays: daysOf(rest.reminderAfterDays),
        letterBeforeClaimAfterDays: daysOf(rest.letterBeforeClaimAfterDays),
        debtRecoveryFeePence: feePence,
      });
    },
    async (input) => onSaved(await saveOperatorSettings(input)),
  );
  return (
    <Card title="Creditor and appeals" titleId="operator-terms-title">
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria" aria-labelledby="operator-terms-title">
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        <div className="form-grid">
          <TextField
            label={FIELD_LABELS.creditorName!}
            name="creditorName"
            value={values.creditorName}
            onChange={set('creditorName')}
            errorMessage={errors.creditorName}
            isRequired
            description="The company the charge is owed to"
          />
          <TextField
            label={FIELD_LABELS.creditorPhone!}
            name="creditorPhone"
            type="tel"
            value={values.creditorPhone}
            onChange={set('creditorPhone')}
            errorMessage={errors.creditorPhone}
            isRequired
          />
          <TextField
            label={FIELD_LABELS.creditorEmail!}
            name="creditorEmail"
            type="email"
            value={values.creditorEmail}
            onChange={set('creditorEmail')}
            errorMessage={errors.creditorEmail}
            isRequired
          />
          <TextField
            label={FIELD_LABELS.creditorWebsite!}
            name="creditorWebsite"
            value={values.creditorWebsite}
            onChange={set('creditorWebsite')}
            errorMessage={errors.creditorWebsite}
            isRequired
          />
        </div>
        <TextField
          label={FIELD_LABELS.creditorAddress!}
          name="creditorAddress"
          isMultiline
          rows={4}
          value={values.creditorAddress}
          onChange={set('creditorAddress')}
          errorMessage={errors.creditorAddress}
          isRequired
          description="One line per line, as it goes on an envelope"
        />
        <TextField
          label={FIELD_LABELS.howToPay!}
          name="howToPay"
          isMultiline
          rows={4}
          value={values.howToPay}
          onChange={set('howToPay')}
          errorMessage={errors.howToPay}
          isRequired
          isReadOnly={!mayChangeHowToPay}
          description={
            mayChangeHowToPay
              ? `How and to whom to pay, as every notice prints it. ${HOW_TO_PAY_ADDRESS_HINT}`
              : `${PAYMENT_DETAILS_MESSAGE}. Ask a Super Admin to change it.`
          }
        />
        <SelectField
          label={FIELD_LABELS.appealsService!}
          name="appealsService"
          options={APPEALS_OPTIONS}
          value={values.appealsService || null}
          placeholder="Choose a service"
          onChange={set('appealsService')}
          errorMessage={errors.appealsService}
          isRequired
          description="Where a motorist takes an appeal you reject"
        />
        <TextField
          label={FIELD_LABELS.appealsServiceContact!}
          name="appealsServiceContact"
          isMultiline
          rows={3}
          value={values.appealsServiceContact}
          onChange={set('appealsServiceContact')}
          errorMessage={errors.appealsServiceContact}
          isRequired
        />
        <fieldset className="form-fieldset form-stack">
          <legend className="form-fieldset__legend">After the notice to keeper</legend>
          <p className="muted">
            An unpaid charge is chased with a reminder, then a letter before claim under the Pre-Action Protocol for Debt Claims (decision
            0039).
          </p>
          <div className="form-grid">
            <TextField
              label={FIELD_LABELS.reminderAfterDays!}
              name="reminderAfterDays"
              inputMode="numeric"
              value={values.reminderAfterDays}
              onChange={set('reminderAfterDays')}
              errorMessage={errors.reminderAfterDays}
              isRequired
              description={`Days after the notice to keeper is presumed given (${COLLECTION_DAY_BOUNDS.reminderAfterDays.min} to ${COLLECTION_DAY_BOUNDS.reminderAfterDays.max})`}
            />
            <TextField
              label={FIELD_LABELS.letterBeforeClaimAfterDays!}
              name="letterBeforeClaimAfterDays"
              inputMode="numeric"
              value={values.letterBeforeClaimAfterDays}
              onChange={set('letterBeforeClaimAfterDays')}
              errorMessage={errors.letterBeforeClaimAfterDays}
              isRequired
              description={`Days after the reminder is presumed given (${COLLECTION_DAY_BOUNDS.letterBeforeClaimAfterDays.min} to ${COLLECTION_DAY_BOUNDS.letterBeforeClaimAfterDays.max})`}
            />
            <TextField
              label={FIELD_LABELS.debtRecoveryFeePence!}
              name="debtRecoveryFee"
              inputMode="decimal"
              value={values.debtRecoveryFee}
              onChange={set('debtRecoveryFee')}
              errorMessage={errors.debtRecoveryFeePence}
              description={`In pounds, 0 for none. ${SECTOR_LIMIT_MESSAGES.debtRecoveryFeePence}. The letters warn of it; it is added only once a charge goes to debt recovery.`}
            />
          </div>
        </fieldset>
        <div className="form-actions">
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Saving...' : 'Save settings'}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

/** A changed value as the history shows it: the debt recovery charge in pounds, the rest as saved. */
function shownValue(field: string, value: unknown): string {
  return field === 'debtRecoveryFeePence' && typeof value === 'number' ? formatPence(value) : String(value);
}

/** Who changed which terms, newest first: the audit of what notices were printed with. */
function ChangeHistory({ changes }: { changes: readonly TermsChange[] }) {
  return (
    <Card title="Changes" titleId="operator-changes-title">
      <TermsChangeList changes={changes} fieldLabel={(field) => FIELD_LABELS[field] ?? field} shownValue={shownValue} />
    </Card>
  );
}
