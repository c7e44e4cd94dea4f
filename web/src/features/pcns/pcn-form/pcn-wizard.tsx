import { useEffect, useRef, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { ERROR_MESSAGES, SCREEN_TEXTS, WIZARD_STEPS } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { submitPcn } from '../api/submit-pcn.ts';
import { errorsOnStep, firstStepWithError, validateDraft, type DraftErrors, type PcnDraft, type PcnDraftFields } from '../pcn-draft.ts';
import { EvidenceStep } from './evidence-step.tsx';
import { OffenceStep } from './offence-step.tsx';
import { ReviewStep } from './review-step.tsx';
import { Stepper } from './stepper.tsx';
import { usePcnDraft } from './use-pcn-draft.ts';
import { VehicleStep } from './vehicle-step.tsx';

export type CarParkOption = { id: string; name: string };

export type FieldRefs = Record<keyof PcnDraftFields | 'images', RefObject<HTMLElement | null>>;

const LAST_STEP = WIZARD_STEPS.length - 1;

/** Fields in the order they appear, for focusing the first invalid one. */
const FIELD_ORDER = ['vehicleRegistration', 'carParkId', 'offenceType', 'location', 'description', 'images'] as const;

type Props = {
  draftKey: string;
  createInitial: () => PcnDraft;
  carParks: CarParkOption[];
  carParksError: string | undefined;
  isLoadingCarParks: boolean;
};

export function PcnWizard({ draftKey, createInitial, carParks, carParksError, isLoadingCarParks }: Props) {
  const navigate = useNavigate();
  const draftApi = usePcnDraft(draftKey, createInitial);
  const { draft } = draftApi;
  const [errors, setErrors] = useState<DraftErrors>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const stepHeadingRef = useRef<HTMLHeadingElement>(null);
  const fieldRefs: FieldRefs = {
    vehicleRegistration: useRef<HTMLElement>(null),
    carParkId: useRef<HTMLElement>(null),
    offenceType: useRef<HTMLElement>(null),
    description: useRef<HTMLElement>(null),
    location: useRef<HTMLElement>(null),
    images: useRef<HTMLElement>(null),
  };
  const step = draft?.step ?? 0;
  const previousStep = useRef<number | null>(null);

  // Focus moves to the new step's heading so a screen reader announces where the officer is.
  useEffect(() => {
    if (!draft) return;
    if (previousStep.current !== null && previousStep.current !== step) stepHeadingRef.current?.focus();
    previousStep.current = step;
  }, [draft, step]);

  if (!draft) return <Spinner />;
  const currentDraft = draft;

  function focusFirstInvalid(stepErrors: DraftErrors) {
    const field = FIELD_ORDER.find((name) => stepErrors[name]);
    if (field) requestAnimationFrame(() => fieldRefs[field].current?.focus());
  }

  function goToStep(next: number) {
    setSubmitError(null);
    draftApi.setStep(next);
  }

  function handleNext() {
    const stepErrors = errorsOnStep(validateDraft(currentDraft), step);
    setErrors(stepErrors);
    if (Object.keys(stepErrors).length > 0) {
      focusFirstInvalid(stepErrors);
      return;
    }
    goToStep(step + 1);
  }

  async function handleSubmit() {
    const allErrors = validateDraft(currentDraft);
    const errorStep = firstStepWithError(allErrors);
    if (errorStep >= 0) {
      setErrors(errorsOnStep(allErrors, errorStep));
      goToStep(errorStep);
      return;
    }
    setSubmitting(true);
    setSubmitError(null);
    try {
      await submitPcn(currentDraft);
      await draftApi.discard();
      navigate(paths.pcns);
    } catch (error) {
      const fallback = currentDraft.pcnId ? ERROR_MESSAGES.updatePcn : ERROR_MESSAGES.createPcn;
      const apiError = toApiError(error, fallback);
      // Unlike the spec, the officer is told: a silent failure would lose a notice.
      setSubmitError(
        apiError.isNetworkError
          ? `${fallback}: no connection. Everything you entered is kept; press ${SCREEN_TEXTS.submitPcn} again when you have signal.`
          : apiError.message,
      );
      const serverErrors = apiError.fields as DraftErrors;
      const serverStep = firstStepWithError(serverErrors);
      if (serverStep >= 0) {
        setErrors(errorsOnStep(serverErrors, serverStep));
        goToStep(serverStep);
        setSubmitError(apiError.message);
      }
    } finally {
      setSubmitting(false);
    }
  }

  const stepErrors = errorsOnStep(errors, step);
  const stepTitle = WIZARD_STEPS[step] ?? '';

  return (
    <form
      className="page"
      noValidate
      aria-labelledby="wizard-step-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (step === LAST_STEP) void handleSubmit();
        else handleNext();
      }}
    >
      <Stepper current={step} />
      <section className="card form-stack">
        <h2 className="step-heading" id="wizard-step-heading" ref={stepHeadingRef} tabIndex={-1}>
          <span className="visually-hidden">{`Step ${step + 1} of ${WIZARD_STEPS.length}: `}</span>
          {stepTitle}
        </h2>
        {step === 0 ? (
          <VehicleStep
            draft={draft}
            errors={stepErrors}
            fieldRefs={fieldRefs}
            carParks={carParks}
            carParksError={carParksError}
            isLoadingCarParks={isLoadingCarParks}
            onChange={draftApi.updateFields}
          />
        ) : null}
        {step === 1 ? <OffenceStep draft={draft} errors={stepErrors} fieldRefs={fieldRefs} onChange={draftApi.updateFields} /> : null}
        {step === 2 ? (
          <EvidenceStep
            draft={draft}
            error={stepErrors.images}
            inputRef={fieldRefs.images}
            onAddPhotos={(files) => {
              draftApi.addPhotos(files);
              if (errors.images) setErrors(({ images: _removed, ...rest }) => rest);
            }}
            onRemovePhoto={draftApi.removePhoto}
            onRemoveExistingImage={draftApi.removeExistingImage}
          />
        ) : null}
        {step === 3 ? <ReviewStep draft={draft} carParks={carParks} onEditStep={goToStep} /> : null}
        {submitError ? <Alert>{submitError}</Alert> : null}
      </section>
      <div className="wizard-actions">
        <Button variant="secondary" isDisabled={step === 0 || isSubmitting} onPress={() => goToStep(step - 1)}>
          <ChevronLeft aria-hidden="true" size={20} />
          {SCREEN_TEXTS.back}
        </Button>
        {step === LAST_STEP ? (
          <Button type="submit" isDisabled={isSubmitting}>
            <Send aria-hidden="true" size={18} />
            {SCREEN_TEXTS.submitPcn}
          </Button>
        ) : (
          <Button type="submit">
            {SCREEN_TEXTS.next}
            <ChevronRight aria-hidden="true" size={20} />
          </Button>
        )}
      </div>
      {isSubmitting ? <Spinner label="Sending…" /> : null}
    </form>
  );
}
