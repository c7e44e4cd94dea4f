import { useState } from 'react';
import { Form } from 'react-aria-components';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import {
  KEEPER_STATE_LABELS,
  KEEPER_TYPE_LABELS,
  KEEPER_TYPES,
  keeperAddressBlock,
  keeperInputSchema,
  type Keeper,
  type Pcn,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { RadioField } from '../../../lib/radio-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { KEEPER_SAVE_FAILED, saveKeeper } from '../api/keepers.ts';
import { Checkbox } from '../components/checkbox.tsx';
import { keeperInputOf, keeperVehicle } from '../components/keeper-vehicle.ts';

const KEEPER_TYPE_OPTIONS = KEEPER_TYPES.map((type) => ({ id: type, label: KEEPER_TYPE_LABELS[type] }));

/**
 * The registered keeper beside the photos: who a notice to keeper goes to, and the vehicle the
 * DVLA holds, which the admin checks against the photos before any letter (personal data:
 * admins only).
 */
export function KeeperDetails({ pcn, onChanged }: { pcn: Pcn; onChanged: (updated: Pcn) => void }) {
  const keeper = pcn.keeper ?? null;
  const [isOpen, setOpen] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [isConfirming, setConfirming] = useState(false);
  const confirm = async () => {
    if (!keeper) return;
    setConfirming(true);
    setConfirmError(null);
    try {
      onChanged(await saveKeeper(pcn.id, keeperInputOf(keeper, 'MATCHES')));
    } catch (error) {
      setConfirmError(error instanceof Error ? error.message : KEEPER_SAVE_FAILED);
    } finally {
      setConfirming(false);
    }
  };
  return (
    <Card title="Registered keeper" titleId="review-keeper-title">
      <div className="form-stack">
        {keeper === null ? (
          <p className="muted">No keeper details yet: enter them, or import the DVLA's reply on Notices to Keeper.</p>
        ) : (
          <>
            <p>
              <strong>{KEEPER_TYPE_LABELS[keeper.keeperType]}</strong>
            </p>
            <address className="keeper-address">
              {keeperAddressBlock(keeper).map((line) => (
                <span key={line}>{line}</span>
              ))}
            </address>
            <p>
              <strong>DVLA vehicle:</strong> {keeperVehicle(keeper) || 'not given'}
            </p>
            {keeper.vehicleConfirmedAt ? (
              <p className="keeper-confirmed">
                <CircleCheck aria-hidden="true" size={18} />
                Matches the photos: confirmed by {keeper.vehicleConfirmedBy || 'an admin'}, {formatDateTime(keeper.vehicleConfirmedAt)}
              </p>
            ) : (
              <div
                className="alert alert--warning"
                role="note"
                aria-label={keeper.vehicleMismatchAt ? KEEPER_STATE_LABELS.MISMATCH : KEEPER_STATE_LABELS.UNCONFIRMED}
              >
                <TriangleAlert aria-hidden="true" size={20} className="alert__icon" />
                <div className="alert__body">
                  {keeper.vehicleMismatchAt ? (
                    <p>
                      Does not match the photos: answered by {keeper.vehicleMismatchBy || 'an admin'},{' '}
                      {formatDateTime(keeper.vehicleMismatchAt)}. No letter goes. Correct the registration or the keeper; if the photos do
                      show this vehicle after all, confirm it.
                    </p>
                  ) : (
                    <p>Check the DVLA's make and colour against the photos. No letter goes until the vehicle is confirmed.</p>
                  )}
                  <Button onPress={() => void confirm()} isDisabled={isConfirming}>
                    {isConfirming ? 'Confirming...' : `The photos show a ${keeperVehicle(keeper) || 'matching vehicle'}`}
                  </Button>
                </div>
              </div>
            )}
            {confirmError ? <Alert>{confirmError}</Alert> : null}
            <p className="muted">
              {keeper.source === 'KEEPER_REPLY' ? 'From a keeper reply' : 'Entered by an admin'}, {formatDateTime(keeper.updatedAt)}
            </p>
          </>
        )}
        <div className="button-row">
          <Button variant="secondary" onPress={() => setOpen(true)}>
            {keeper ? 'Edit keeper details' : 'Enter keeper details'}
          </Button>
        </div>
      </div>
      {isOpen ? (
        <KeeperForm
          pcn={pcn}
          keeper={keeper}
          onClose={() => setOpen(false)}
          onSaved={(updated) => {
            onChanged(updated);
            setOpen(false);
          }}
        />
      ) : null}
    </Card>
  );
}

function KeeperForm({
  pcn,
  keeper,
  onClose,
  onSaved,
}: {
  pcn: Pcn;
  keeper: Keeper | null;
  onClose: () => void;
  onSaved: (pcn: Pcn) => void;
}) {
  const [values, setValues] = useState({
    title: keeper?.title ?? '',
    firstNames: keeper?.firstNames ?? '',
    lastName: keeper?.lastName ?? '',
    companyName: keeper?.companyName ?? '',
    address1: keeper?.addressLines[0] ?? '',
    address2: keeper?.addressLines[1] ?? '',
    address3: keeper?.addressLines[2] ?? '',
    address4: keeper?.addressLines[3] ?? '',
    postcode: keeper?.postcode ?? '',
    make: keeper?.make ?? '',
    model: keeper?.model ?? '',
    colour: keeper?.colour ?? '',
  });
  const [vehicleConfirmed, setVehicleConfirmed] = useState(keeper?.vehicleConfirmedAt != null);
  // A hire or lease firm names the hirer (Schedule 4, paragraph 13), who then gets the notice to hirer.
  const [keeperType, setKeeperType] = useState<string | null>(keeper?.keeperType ?? 'REGISTERED_KEEPER');
  const form = useFormSubmit({
    fallbackMessage: KEEPER_SAVE_FAILED,
    // The address is one field to the schema and four to the form: its message goes on the first line.
    mapErrors: (errors) => {
      const { addressLines, ...rest } = errors;
      return addressLines ? { ...rest, address1: addressLines } : rest;
    },
  });
  const { errors } = form;
  const set = (field: keyof typeof values) => (value: string) => setValues((previous) => ({ ...previous, [field]: value }));
  const handleSubmit = form.handle(
    () =>
      keeperInputSchema.safeParse({
        title: values.title,
        firstNames: values.firstNames,
        lastName: values.lastName,
        companyName: values.companyName,
        addressLines: [values.address1, values.address2, values.address3, values.address4],
        postcode: values.postcode,
        make: values.make,
        model: values.model,
        colour: values.colour,
        keeperType,
        vehicleConfirmed,
      }),
    async (input) => onSaved(await saveKeeper(pcn.id, input)),
  );
  const field = (
    name: keyof typeof values,
    label: string,
    extra: { isRequired?: boolean; description?: string; autoComplete?: string } = {},
  ) => <TextField label={label} name={name} value={values[name]} onChange={set(name)} errorMessage={errors[name]} {...extra} />;
  return (
    <ModalDialog title="Registered keeper" isOpen onClose={onClose} isBusy={form.isBusy} size="large">
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        <RadioField
          label="Who is the keeper?"
          options={KEEPER_TYPE_OPTIONS}
          value={keeperType}
          onChange={setKeeperType}
          errorMessage={errors.keeperType}
          isRequired
        />
        <div className="form-grid">
          {field('title', 'Title')}
          {field('firstNames', 'First names')}
          {field('lastName', 'Last name', { description: 'Or a company name below' })}
          {field('companyName', 'Company name', { description: 'For a lease or hire company' })}
          {field('address1', 'Address line 1', { isRequired: true })}
          {field('address2', 'Address line 2')}
          {field('address3', 'Town or city')}
          {field('address4', 'County')}
          {field('postcode', 'Postcode', { isRequired: true })}
        </div>
        <fieldset className="form-fieldset">
          <legend className="form-fieldset__legend">The vehicle the DVLA holds</legend>
          <div className="form-grid">
            {field('make', 'Make')}
            {field('model', 'Model')}
            {field('colour', 'Colour')}
          </div>
          <Checkbox name="vehicleConfirmed" isSelected={vehicleConfirmed} onChange={setVehicleConfirmed}>
            The vehicle in the photos matches this make and colour
          </Checkbox>
        </fieldset>
        <div className="modal__actions">
          <Button variant="secondary" onPress={onClose} isDisabled={form.isBusy}>
            Cancel
          </Button>
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Saving...' : 'Save keeper'}
          </Button>
        </div>
      </Form>
    </ModalDialog>
  );
}
