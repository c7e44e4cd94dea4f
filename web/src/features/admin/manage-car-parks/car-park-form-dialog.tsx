import { useState } from 'react';
import { Form } from 'react-aria-components';
import {
  ADMIN_TEXTS,
  createCarParkInputSchema,
  DEFAULT_CONSIDERATION_MINUTES,
  DEFAULT_GRACE_MINUTES,
  ERROR_MESSAGES,
  updateCarParkInputSchema,
  type CarPark,
  type UpdateCarParkInput,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { createCarPark, updateCarPark } from '../api/car-parks.ts';
import { Checkbox } from '../components/checkbox.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';

const STAY_APPLIES_BY_DEFAULT_LABEL = 'A stay applies by default';

const toMinutes = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

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
  const form = useFormSubmit({
    fallbackMessage: isNew ? ERROR_MESSAGES.createCarPark : ERROR_MESSAGES.updateCarPark,
    mapErrors: minuteMessages,
  });
  const { errors } = form;

  const values = () => ({
    name,
    siteCode,
    address,
    postcode,
    considerationMinutes: toMinutes(consideration),
    graceMinutes: toMinutes(grace),
    stayAppliesByDefault,
  });
  const handleSubmit = isNew
    ? form.handle(
        () => createCarParkInputSchema.safeParse(values()),
        async (input) => onSaved(await createCarPark(input), true),
      )
    : form.handle(
        () => {
          const parsed = updateCarParkInputSchema.safeParse(values());
          if (!parsed.success) return parsed;
          const changes: UpdateCarParkInput = {};
          for (const key of Object.keys(parsed.data) as Array<keyof UpdateCarParkInput>) {
            if (parsed.data[key] !== carPark[key]) Object.assign(changes, { [key]: parsed.data[key] });
          }
          if (Object.keys(changes).length > 0) return { success: true, data: changes };
          onOpenChange(false);
          return null;
        },
        async (changes) => onSaved(await updateCarPark(carPark.id, changes), false),
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
          />
          <TextField
            label="Grace period (minutes)"
            name="graceMinutes"
            inputMode="numeric"
            value={grace}
            onChange={setGrace}
            errorMessage={errors.graceMinutes}
          />
        </div>
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
  return out;
}
