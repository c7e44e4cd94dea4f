import { useEffect, useRef, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { ERROR_MESSAGES, SCREEN_TEXTS, WIZARD_STEPS } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { isQuotaExceededError, STORAGE_FULL_MESSAGE } from '../../../lib/local-db.ts';
import { Button } from '../../../lib/button.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { updatePcn } from '../api/submit-pcn.ts';
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

const SERVER_REFUSED_PREFIX = 'The server refused this notice: ';

/** Edits are sent online only (decision 0009); the draft keeps them until they are. */
export const EDIT_OFFLINE_MESSAGE = `${ERROR_MESSAGES.updatePcn}: no connection. Changes to a PCN are sent online only; they are kept on this phone, so press ${SCREEN_TEXTS.submitPcn} again when you have signal.`;

/** Fields in the order they appear, for focusing the first invalid one. */
const FIELD_ORDER = ['vehicleRegistration', 'carParkId', 'offenceType', 'location', 'description', 'images'] as const;

type Props = {
  draftKey: string;
  userId: string;
  createInitial: () => PcnDraft;
  reconcile?: (stored: PcnDraft) => PcnDraft;
  /** The draft was submitted meanwhile (Back after Submit, another tab): start a fresh one. */
  onDraftLocked: () => void;
  carParks: CarParkOption[];
  carParksError: string | undefined;
  isLoadingCarParks: boolean;
};

export function PcnWizard({ draftKey, userId, createInitial, reconcile, onDraftLocked, carParks, carParksError, isLoadingCarParks }: Props) {
  const navigate = useNavigate();
  const draftApi = usePcnDraft({ draftKey, userId, createInitial, reconcile });
  const { draft, status } = draftApi;
  const [errors, setErrors] = useState<DraftErrors>({});
  const serverError = draft?.serverError ?? null;
  const shownServerErrors = useRef(false);
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

  useEffect(() => {
    if (status === 'locked') onDraftLocked();
  }, [status, onDraftLocked]);

  // A notice the server refused comes back with its messages on the fields they concern.
  useEffect(() => {
    if (!serverError?.fields || shownServerErrors.current) return;
    shownServerErrors.current = true;
    setErrors(serverError.fields as DraftErrors);
  }, [serverError]);

  // Focus moves to the new step's heading so a screen reader announces where the officer is.
  useEffect(() => {
    if (!draft) return;
    if (previousStep.current !== null && previousStep.current !== step) stepHeadingRef.current?.focus();
    previousStep.current = step;
  }, [draft, step]);

  if (!draft) return <Spinner />;
  const isBusy = isSubmitting || draftApi.pendingPhotos > 0;
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
    const { pcnId } = currentDraft;
    if (!pcnId) {
      // A new notice never waits for the network: it joins the outbox on this phone, and the
      // outbox sends it (now if there is signal, later if not). The officer is back on the list.
      try {
        await draftApi.queue();
        navigate(paths.pcns, { replace: true });
      } catch (error) {
        setSubmitError(isQuotaExceededError(error) ? STORAGE_FULL_MESSAGE : `${ERROR_MESSAGES.createPcn}: it could not be saved on this phone. Try again.`);
        setSubmitting(false);
      }
      return;
    }
    try {
      await updatePcn({ ...currentDraft, pcnId });
      await draftApi.discard();
      navigate(paths.pcns);
    } catch (error) {
      const fallback = ERROR_MESSAGES.updatePcn;
      const apiError = toApiError(error, fallback);
      // Unlike the spec, the officer is told: a silent failure would lose a change.
      setSubmitError(apiError.isNetworkError ? EDIT_OFFLINE_MESSAGE : apiError.message);
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
      {serverError ? <Alert>{`${SERVER_REFUSED_PREFIX}${serverError.message}`}</Alert> : null}
      {draftApi.storageError ? <Alert>{draftApi.storageError}</Alert> : null}
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
            error={stepErrors.images ?? draftApi.photoError ?? undefined}
            pendingPhotos={draftApi.pendingPhotos}
            inputRef={fieldRefs.images}
            onAddPhotos={(files) => {
              void draftApi.addPhotos(files);
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
          <Button type="submit" isDisabled={isBusy}>
            <Send aria-hidden="true" size={18} />
            {SCREEN_TEXTS.submitPcn}
          </Button>
        ) : (
          <Button type="submit" isDisabled={isBusy}>
            {SCREEN_TEXTS.next}
            <ChevronRight aria-hidden="true" size={20} />
          </Button>
        )}
      </div>
      {isSubmitting && draft.pcnId ? <Spinner label="Sending…" /> : null}
    </form>
  );
}
