import { useState } from 'react';
import { Form } from 'react-aria-components';
import {
  ADMIN_TEXTS,
  carParkProblems,
  createCarParkInputSchema,
  formatPence,
  needsMinimumsOverrideReason,
  SECTOR_LIMITS,
  SECTOR_LIMIT_MESSAGES,
  JURISDICTION_LABELS,
  JURISDICTIONS,
  parsePounds,
  DEFAULT_CONSIDERATION_MINUTES,
  DEFAULT_GRACE_MINUTES,
  ERROR_MESSAGES,
  fieldErrors,
  updateCarParkInputSchema,
  type CarPark,
  type UpdateCarParkInput,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { createCarPark, updateCarPark } from '../api/car-parks.ts';
import { Checkbox } from '../components/checkbox.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';

const STAY_APPLIES_BY_DEFAULT_LABEL = 'A stay applies by default';

const toMinutes = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
const penceText = (pence: number | null | undefined) =>
  pence === null || pence === undefined ? '' : (pence / 100).toFixed(2).replace(/\.00$/, '');
const JURISDICTION_OPTIONS = JURISDICTIONS.map((id) => ({ id, label: JURISDICTION_LABELS[id] }));
const AMOUNT_MESSAGE = 'Enter an amount in pounds, like 100 or 60.50';
const DAYS_MESSAGE = `Enter whole days from ${SECTOR_LIMITS.minReducedWithinDays} to 28`;
const CHARGE_HINT = `At most ${formatPence(SECTOR_LIMITS.maxChargePence)}, the Single Code's cap`;
const REDUCED_CHARGE_HINT = `For prompt payment, at most ${SECTOR_LIMITS.maxReducedChargePercent}% of the charge; leave blank for none`;
const REASON_HINT = `The Single Code's minimums are ${SECTOR_LIMITS.minConsiderationMinutes} minutes' consideration and ${SECTOR_LIMITS.minGraceMinutes} minutes' grace: say why this car park has less (a no-stopping zone, say). Evidence packs print it.`;

/** Pounds as typed to pence: blank is no amount, anything else that is not an amount is a field error. */
function amountOf(text: string): { pence: number | null } | { problem: string } {
  if (text.trim() === '') return { pence: null };
  const pence = parsePounds(text);
  return pence === null ? { problem: AMOUNT_MESSAGE } : { pence };
}

/** Create or edit a car park with the shared schema's rules and the server's conflicts shown. */
export function CarParkFormDialog({
  carPark,
  isOpen,
  onOpenChange,
  onSaved,
}: {
  carPark: CarPark | null;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  onSaved: (carPark: CarPark, isNew: boolean) => void;
}) {
  const isNew = carPark === null;
  const [name, setName] = useState(carPark?.name ?? '');
  const [siteCode, setSiteCode] = useState(carPark?.siteCode ?? '');
  const [address, setAddress] = useState(carPark?.address ?? '');
  const [postcode, setPostcode] = useState(carPark?.postcode ?? '');
  const [consideration, setConsideration] = useState(String(carPark?.considerationMinutes ?? DEFAULT_CONSIDERATION_MINUTES));
  const [grace, setGrace] = useState(String(carPark?.graceMinutes ?? DEFAULT_GRACE_MINUTES));
  const [stayAppliesByDefault, setStayAppliesByDefault] = useState(carPark?.stayAppliesByDefault ?? false);
  const [charge, setCharge] = useState(penceText(carPark?.chargePence));
  const [reducedCharge, setReducedCharge] = useState(penceText(carPark?.reducedChargePence));
  const [reducedWithinDays, setReducedWithinDays] = useState(carPark?.reducedWithinDays?.toString() ?? '');
  const [signageTerms, setSigningTerms] = useState(carPark?.signageTerms ?? '');
  const [jurisdiction, setJurisdiction] = useState<string>(carPark?.jurisdiction ?? 'ENGLAND_AND_WALES');
  const [minimumsOverrideReason, setMinimumsOverrideReason] = useState(carPark?.minimumsOverrideReason ?? '');
  // Schedule 4 paragraph 3: land under byelaws (or other statutory control) is not "relevant land".
  const [relevantLand, setRelevantLand] = useState(carPark?.relevantLand ?? true);
  // Asked for only while a period is shorter than the Code's minimum; otherwise none is kept.
  const needsReason = needsMinimumsOverrideReason({ considerationMinutes: toMinutes(consideration), graceMinutes: toMinutes(grace) });
  const form = useFormSubmit({
    fallbackMessage: isNew ? ERROR_MESSAGES.createCarPark : ERROR_MESSAGES.updateCarPark,
    mapErrors: minuteMessages,
  });
  const { errors } = form;

  /** The form's values in the schema's terms, or the fields a person must put right first. */
  const values = () => {
    const chargeAmount = amountOf(charge);
    const reducedAmount = amountOf(reducedCharge);
    const problems: Record<string, string> = {};
    if ('problem' in chargeAmount) problems.chargePence = chargeAmount.problem;
    if ('problem' in reducedAmount) problems.reducedChargePence = reducedAmount.problem;
    const days = reducedWithinDays.trim() === '' ? null : Number(reducedWithinDays);
    const input = {
      name,
      siteCode,
      address,
      postcode,
      considerationMinutes: toMinutes(consideration),
      graceMinutes: toMinutes(grace),
      stayAppliesByDefault,
      chargePence: 'pence' in chargeAmount ? chargeAmount.pence : null,
      reducedChargePence: 'pence' in reducedAmount ? reducedAmount.pence : null,
      reducedWithinDays: days,
      signageTerms,
      jurisdiction,
      relevantLand,
      minimumsOverrideReason: needsReason ? minimumsOverrideReason : null,
    };
    Object.assign(problems, { ...carParkProblems(input), ...problems });
    return { input, problems };
  };
  /** The schema's messages and the form's own, together, so every field in error says so at once. */
  function parseWith<S extends typeof createCarParkInputSchema | typeof updateCarParkInputSchema>(schema: S) {
    const { input, problems } = values();
    const parsed = schema.safeParse(input);
    const schemaErrors = parsed.success ? {} : fieldErrors(parsed.error);
    const all = { ...schemaErrors, ...problems };
    if (Object.keys(all).length > 0) return { success: false as const, fieldErrors: all };
    return parsed as Extract<ReturnType<S['safeParse']>, { success: true }>;
  }
  const handleSubmit = isNew
    ? form.handle(
        () => parseWith(createCarParkInputSchema),
        async (input) => onSaved(await createCarPark(input), true),
      )
    : form.handle(
        () => {
          const parsed = parseWith(updateCarParkInputSchema);
          if (!parsed.success) return parsed;
          const changes: UpdateCarParkInput = {};
          for (const key of Object.keys(parsed.data) as Array<keyof UpdateCarParkInput>) {
            if (parsed.data[key] !== carPark[key]) Object.assign(changes, { [key]: parsed.data[key] });
          }
          return { success: true, data: changes };
        },
        async (changes) => {
          // Nothing changed: nothing to send. Here, not in the check, which also runs as fields are edited.
          if (Object.keys(changes).length === 0) return onOpenChange(false);
          onSaved(await updateCarPark(carPark.id, changes), false);
        },
      );

  return (
    <ModalDialog
      title={isNew ? 'Create car park' : 'Edit car park'}
      isOpen={isOpen}
      onClose={() => onOpenChange(false)}
      isBusy={form.isBusy}
      size="large"
    >
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        <div className="form-grid">
          <TextField label={ADMIN_TEXTS.name} name="name" value={name} onChange={setName} errorMessage={errors.name} isRequired autoFocus />
          <TextField
            label="Site code"
            name="siteCode"
            value={siteCode}
            onChange={setSiteCode}
            errorMessage={errors.siteCode}
            isRequired
            autoCapitalize="characters"
          />
          <TextField label="Address" name="address" value={address} onChange={setAddress} errorMessage={errors.address} />
          <TextField
            label="Postcode"
            name="postcode"
            value={postcode}
            onChange={setPostcode}
            errorMessage={errors.postcode}
            autoCapitalize="characters"
          />
          <TextField
            label="Consideration period (minutes)"
            name="considerationMinutes"
            inputMode="numeric"
            value={consideration}
            onChange={setConsideration}
            errorMessage={errors.considerationMinutes}
            description={SECTOR_LIMIT_MESSAGES.considerationMinutesHint}
          />
          <TextField
            label="Grace period (minutes)"
            name="graceMinutes"
            inputMode="numeric"
            value={grace}
            onChange={setGrace}
            errorMessage={errors.graceMinutes}
            description={SECTOR_LIMIT_MESSAGES.graceMinutesHint}
          />
        </div>
        {needsReason ? (
          <TextField
            label="Reason for shorter periods"
            name="minimumsOverrideReason"
            isMultiline
            rows={2}
            value={minimumsOverrideReason}
            onChange={setMinimumsOverrideReason}
            errorMessage={errors.minimumsOverrideReason}
            description={REASON_HINT}
            isRequired
          />
        ) : null}
        <div className="form-stack">
          <Checkbox
            name="stayAppliesByDefault"
            isSelected={stayAppliesByDefault}
            onChange={setStayAppliesByDefault}
            aria-describedby="car-park-stay-help"
          >
            {STAY_APPLIES_BY_DEFAULT_LABEL}
          </Checkbox>
          <p id="car-park-stay-help" className="field__description">
            When a stay applies, officers wait for the consideration and grace periods after first seeing a vehicle before issuing a notice.
            Officers can still say otherwise for a single notice.
          </p>
        </div>
        <fieldset className="form-fieldset">
          <legend className="form-fieldset__legend">Charge and terms</legend>
          <p className="field__description">
            Printed on every notice issued here. A notice keeps the terms in force when it was issued, whatever changes later.
          </p>
          <div className="form-grid">
            <TextField
              label="Charge (£)"
              name="chargePence"
              inputMode="decimal"
              value={charge}
              onChange={setCharge}
              errorMessage={errors.chargePence}
              description={CHARGE_HINT}
            />
            <TextField
              label="Reduced charge (£)"
              name="reducedChargePence"
              inputMode="decimal"
              value={reducedCharge}
              onChange={setReducedCharge}
              errorMessage={errors.reducedChargePence}
              description={REDUCED_CHARGE_HINT}
            />
            <TextField
              label="Reduced if paid within (days)"
              name="reducedWithinDays"
              inputMode="numeric"
              value={reducedWithinDays}
              onChange={setReducedWithinDays}
              errorMessage={errors.reducedWithinDays}
            />
            <SelectField
              label="Where the land is"
              name="jurisdiction"
              options={JURISDICTION_OPTIONS}
              value={jurisdiction}
              onChange={(value) => setJurisdiction(value ?? 'ENGLAND_AND_WALES')}
              errorMessage={errors.jurisdiction}
              description="Keeper liability (Protection of Freedoms Act 2012, Schedule 4) applies in England and Wales only"
            />
          </div>
          <div>
            <Checkbox name="relevantLand" isSelected={relevantLand} onChange={setRelevantLand} aria-describedby="relevant-land-help">
              Relevant land under Schedule 4
            </Checkbox>
            <p className="muted" id="relevant-land-help">
              Untick for land where parking is under byelaws or other statutory control (a station or airport, say): no keeper liability
              there, so the keeper gets a request to name the driver instead of a notice to keeper.
            </p>
            {errors.relevantLand ? <Alert>{errors.relevantLand}</Alert> : null}
          </div>
          <TextField
            label="Signage terms, as shown on site"
            name="signageTerms"
            isMultiline
            rows={3}
            value={signageTerms}
            onChange={setSigningTerms}
            errorMessage={errors.signageTerms}
          />
        </fieldset>
        <div className="modal__actions">
          <Button variant="secondary" onPress={() => onOpenChange(false)} isDisabled={form.isBusy}>
            {ADMIN_TEXTS.cancel}
          </Button>
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Saving...' : isNew ? 'Create car park' : 'Save changes'}
          </Button>
        </div>
      </Form>
    </ModalDialog>
  );
}

/** The schema's number errors are zod's defaults; say what a person can act on. */
function minuteMessages(errors: Record<string, string>): Record<string, string> {
  const out = { ...errors };
  for (const key of ['considerationMinutes', 'graceMinutes']) {
    if (out[key]) out[key] = 'Enter whole minutes from 0 to 240';
  }
  if (out.reducedWithinDays && !out.reducedWithinDays.startsWith('Say')) out.reducedWithinDays = DAYS_MESSAGE;
  return out;
}
