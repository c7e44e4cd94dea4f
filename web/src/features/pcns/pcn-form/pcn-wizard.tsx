import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ChevronLeft, ChevronRight, Send } from 'lucide-react';
import { ERROR_MESSAGES, permitOverrideProblem, SCREEN_TEXTS, WIZARD_STEPS } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { isQuotaExceededError, STORAGE_FULL_MESSAGE } from '../../../lib/storage-full.ts';
import { PhotoReadBackError } from '../../../lib/local-db/drafts.ts';
import { Button } from '../../../lib/button.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { updatePcn } from '../api/submit-pcn.ts';
import { DuplicateWarning } from '../evidence/duplicate-warning.tsx';
import { PermitWarning } from '../evidence/permit-warning.tsx';
import { usePermitCheck } from '../../../lib/permits-offline.ts';
import { validateEvidence } from '../evidence/evidence-errors.ts';
import { ObservationTimer, type ObservationPatch } from '../evidence/observation-timer.tsx';
import { effectiveStayApplies, observationDueAtOf, secondVisitProblem, type ObservationCarPark } from '../evidence/observation-rules.ts';
import { requestReminderPermission } from '../observations/reminders.ts';
import { SecondVisit } from '../observations/second-visit.tsx';
import { useDuplicateCheck } from '../evidence/use-duplicate-check.ts';
import { useObservationTimer } from '../evidence/use-observation-timer.ts';
import { errorsOnStep, firstStepWithError, reconcileErrors, validateDraft, type DraftErrors, type PcnDraft } from '../pcn-draft.ts';
import { defaultCarParkId, readLastCarPark, rememberLastCarPark } from './default-car-park.ts';
import { readRecentLocations, rememberLocation } from './recent-locations.ts';
import { EvidenceStep } from './evidence-step.tsx';
import { OffenceStep } from './offence-step.tsx';
import { ReviewStep } from './review-step.tsx';
import { Stepper } from './stepper.tsx';
import { usePcnDraft } from './use-pcn-draft.ts';
import { useNoticeTerms } from '../../../lib/filing-data.ts';
import { VehicleStep } from './vehicle-step.tsx';
import type { CarParkOption, FieldRefs } from './wizard-types.ts';

function toObservationCarPark(option: CarParkOption | undefined): ObservationCarPark | null {
  if (!option || typeof option.considerationMinutes !== 'number' || typeof option.graceMinutes !== 'number') return null;
  return {
    considerationMinutes: option.considerationMinutes,
    graceMinutes: option.graceMinutes,
    stayAppliesByDefault: Boolean(option.stayAppliesByDefault),
  };
}

const LAST_STEP = WIZARD_STEPS.length - 1;

const SERVER_REFUSED_PREFIX = 'The server refused this notice: ';

/** Edits are sent online only (decision 0009); the draft keeps them until they are. */
export const EDIT_OFFLINE_MESSAGE = `${ERROR_MESSAGES.updatePcn}: no connection. Changes to a PCN are sent online only; they are kept on this phone, so press ${SCREEN_TEXTS.submitPcn} again when you have signal.`;

/** Fields in the order they appear, for focusing the first invalid one. */
const FIELD_ORDER = [
  'vehicleRegistration',
  'carParkId',
  'permitOverrideReason',
  'offenceType',
  'location',
  'description',
  'images',
  'noticeServedBy',
  'firstSeenAt',
] as const;

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

export function PcnWizard({
  draftKey,
  userId,
  createInitial,
  reconcile,
  onDraftLocked,
  carParks,
  carParksError,
  isLoadingCarParks,
}: Props) {
  const navigate = useNavigate();
  const draftApi = usePcnDraft({ draftKey, userId, createInitial, reconcile });
  const noticeTerms = useNoticeTerms(userId);
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
    permitOverrideReason: useRef<HTMLElement>(null),
    offenceType: useRef<HTMLElement>(null),
    description: useRef<HTMLElement>(null),
    location: useRef<HTMLElement>(null),
    images: useRef<HTMLElement>(null),
    noticeServedBy: useRef<HTMLElement>(null),
    firstSeenAt: useRef<HTMLElement>(null),
  };
  const step = draft?.step ?? 0;
  const previousStep = useRef<number | null>(null);
  const previousDraft = useRef<PcnDraft | null>(null);
  const problemId = useId();
  const carPark = toObservationCarPark(carParks.find((option) => option.id === draft?.carParkId));
  // Above the steps, so the answer survives moving between them.
  const { duplicates } = useDuplicateCheck({
    vehicleRegistration: draft?.vehicleRegistration ?? '',
    carParkId: draft?.carParkId ?? '',
    observedAt: draft?.observedAt,
    excludePcnId: draft?.pcnId,
  });
  // From the phone's own list, so it answers the same with no signal (decision 0041). Only a new
  // notice is checked: the server checks a notice once, when it is filed.
  const permitCheck = usePermitCheck(userId, draft?.carParkId ?? '', draft?.vehicleRegistration ?? '');
  const heldPermit = draft && !draft.pcnId ? permitCheck.permit : null;
  const serverPermitMessage = serverError?.fields?.permitOverrideReason ?? null;
  const isPermitHeld = Boolean(heldPermit || (serverPermitMessage && !draft?.pcnId));
  // Ticks while a first sighting runs: an edit's Submit waits for consideration + grace.
  const observation = useObservationTimer({ observedAt: draft?.observedAt, stayApplies: draft?.stayApplies }, carPark);
  const needsCarPark = Boolean(draft && !draft.pcnId && !draft.carParkId && !isLoadingCarParks);
  const startingCarParkId = needsCarPark
    ? defaultCarParkId(
        carParks.map((option) => option.id),
        readLastCarPark(userId),
      )
    : '';
  const { updateFields } = draftApi;
  // A stay's observation (docs/decisions/0012): its due time, and 'OPEN' once it is recorded
  // (registration, car park, a photo), kept in the draft for the lists, reminders and sync.
  const observationDueAt = draft && !draft.pcnId ? observationDueAtOf(draft, carPark) : null;
  const isObservationRecorded = Boolean(
    observationDueAt && draft?.vehicleRegistration.trim() && draft.carParkId && draft.photos.length > 0,
  );
  const observationStatus = observationDueAt && (isObservationRecorded || draft?.observationStatus === 'OPEN') ? 'OPEN' : null;
  useEffect(() => {
    if (!draft || draft.pcnId || isLoadingCarParks) return;
    if ((draft.observationDueAt ?? null) !== observationDueAt || (draft.observationStatus ?? null) !== observationStatus) {
      updateFields({ observationDueAt, observationStatus });
    }
  }, [draft, observationDueAt, observationStatus, isLoadingCarParks, updateFields]);

  // A new notice starts at the officer's last (or only) car park: no tap for it.
  useEffect(() => {
    if (startingCarParkId) updateFields({ carParkId: startingCarParkId });
  }, [startingCarParkId, updateFields]);

  useEffect(() => {
    if (status === 'locked') onDraftLocked();
  }, [status, onDraftLocked]);

  // A notice the server refused comes back with its messages on the fields they concern.
  useEffect(() => {
    if (!serverError?.fields || shownServerErrors.current) return;
    shownServerErrors.current = true;
    setErrors(serverError.fields as DraftErrors);
  }, [serverError]);

  // Forgiving validation: an error goes as soon as its field is fixed (reconcileErrors).
  useEffect(() => {
    if (!draft) return;
    const before = previousDraft.current;
    previousDraft.current = draft;
    if (!before || before.id !== draft.id) return;
    setErrors((current) =>
      Object.keys(current).length === 0 ? current : reconcileErrors(current, before, draft, validateAll(draft, false)),
    );
    // validateAll reads the car park and duplicates of this render, as the draft does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft]);

  // Focus moves to the new step's heading so a screen reader announces where the officer is.
  useEffect(() => {
    if (!draft) return;
    if (previousStep.current !== null && previousStep.current !== step) stepHeadingRef.current?.focus();
    previousStep.current = step;
  }, [draft, step]);

  /** The evidence rules first, so a photo-count problem wins over a checklist one on the same field. */
  function validateAll(of: PcnDraft, isSubmit: boolean): DraftErrors {
    const permitProblem = permitOverrideProblem(isPermitHeld, of.permitOverrideReason);
    return {
      ...validateEvidence(of, { carPark, duplicates, now: Date.now(), isSubmit }),
      ...validateDraft(of),
      ...(permitProblem ? { permitOverrideReason: permitProblem } : {}),
    };
  }

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

  function validate(isSubmit: boolean): DraftErrors {
    return validateAll(currentDraft, isSubmit);
  }

  function clearErrors(...fields: Array<keyof DraftErrors>) {
    if (fields.some((field) => errors[field]))
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !fields.includes(field as keyof DraftErrors))));
  }

  function handleNext() {
    const stepErrors = errorsOnStep(validate(false), step);
    setErrors(stepErrors);
    if (Object.keys(stepErrors).length > 0) {
      focusFirstInvalid(stepErrors);
      return;
    }
    goToStep(step + 1);
  }

  async function handleSubmit() {
    const { issuedAt: waitProblem, ...allErrors } = validate(true);
    const errorStep = firstStepWithError(allErrors);
    if (errorStep >= 0) {
      setErrors(errorsOnStep(allErrors, errorStep));
      goToStep(errorStep);
      return;
    }
    // A stay notice is issued only after the second visit's photo (docs/decisions/0012);
    // nothing waits on the phone to send itself later.
    const visitProblem = currentDraft.pcnId ? null : secondVisitProblem(currentDraft, carPark, currentDraft.photos, Date.now());
    if (visitProblem ?? waitProblem) {
      setErrors({ issuedAt: (visitProblem ?? waitProblem)! });
      return;
    }
    setSubmitting(true);
    setSubmitError(null);
    const { pcnId } = currentDraft;
    if (!pcnId) {
      // A new notice never waits for the network: it joins the outbox on this phone, and the
      // outbox sends it (now if there is signal, later if not). The officer is back on the list.
      try {
        // Submit fixes the time of issue and whether a stay applied, as the form checked them.
        await draftApi.queue({
          issuedAt: new Date(Date.now()).toISOString(),
          stayApplies: carPark ? effectiveStayApplies(currentDraft.stayApplies, carPark) : currentDraft.stayApplies,
        });
        rememberLocation(userId, currentDraft.carParkId, currentDraft.location);
        rememberLastCarPark(userId, currentDraft.carParkId);
        void navigate(paths.pcns, { replace: true });
      } catch (error) {
        setSubmitError(
          isQuotaExceededError(error)
            ? STORAGE_FULL_MESSAGE
            : error instanceof PhotoReadBackError
              ? `${ERROR_MESSAGES.createPcn}: ${error.message}. Remove ${error.missing === 1 ? 'it' : 'them'} on Upload Evidence, take ${error.missing === 1 ? 'it' : 'them'} again, then submit.`
              : `${ERROR_MESSAGES.createPcn}: it could not be saved on this phone. Try again.`,
        );
        setSubmitting(false);
      }
      return;
    }
    try {
      await updatePcn({ ...currentDraft, pcnId });
      await draftApi.discard();
      void navigate(paths.pcns);
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
  const updateObservation = (patch: ObservationPatch) => {
    // Starting an observation is when a reminder makes sense to the officer: ask for it then.
    if (patch.observedAt && carPark && effectiveStayApplies(patch.stayApplies ?? draft.stayApplies, carPark)) requestReminderPermission();
    draftApi.updateFields(patch);
    clearErrors('observedAt', 'issuedAt');
  };
  const isLastStep = step === LAST_STEP;
  const isWaiting = observation.phase === 'waiting' && observation.earliestIssueAt !== null;
  // An edit inside the wait, or a stay notice without its second visit: Submit says why it cannot go.
  const visitProblem = draft.pcnId ? null : secondVisitProblem(draft, carPark, draft.photos, observation.nowMs);
  const isSubmitBlocked = isLastStep && ((Boolean(draft.pcnId) && isWaiting) || visitProblem !== null);
  // The step's one problem, stated once beside its actions (fields keep their own messages).
  const problem =
    step === 0
      ? (stepErrors.observedAt ?? stepErrors.issuedAt)
      : step === 2
        ? (stepErrors.images ?? draftApi.photoError ?? undefined)
        : isLastStep
          ? (submitError ?? errors.issuedAt ?? (isSubmitBlocked ? (visitProblem ?? observation.explanation) : undefined))
          : undefined;

  return (
    <form
      className="page"
      noValidate
      aria-labelledby="wizard-step-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (!isLastStep) handleNext();
        else if (!isSubmitBlocked) void handleSubmit();
      }}
    >
      <Stepper current={step} />
      {serverError ? <Alert>{`${SERVER_REFUSED_PREFIX}${serverError.message}`}</Alert> : null}
      {draftApi.storageError ? <Alert>{draftApi.storageError}</Alert> : null}
      {draft.observationDueAt && !draft.pcnId ? (
        <SecondVisit
          draftId={draft.id}
          dueAt={draft.observationDueAt}
          photos={draft.photos}
          isRecorded={draft.observationStatus === 'OPEN'}
          onTakePhoto={(files) => void draftApi.addPhotos(files)}
          isBusy={isBusy}
        />
      ) : null}
      <section className="card form-stack">
        <h2 className="step-heading" id="wizard-step-heading" ref={stepHeadingRef} tabIndex={-1}>
          <span className="visually-hidden">{`Step ${step + 1} of ${WIZARD_STEPS.length}: `}</span>
          {stepTitle}
        </h2>
        {step === 0 ? (
          <VehicleStep
            autoFocusRegistration={!draft.pcnId && !draft.vehicleRegistration}
            draft={draft}
            errors={stepErrors}
            fieldRefs={fieldRefs}
            carParks={carParks}
            carParksError={carParksError}
            isLoadingCarParks={isLoadingCarParks}
            onChange={draftApi.updateFields}
          />
        ) : null}
        {/* Right under the car park: at a stay the first sighting is the time-critical act, asked
            before anything else. */}
        {step === 0 && draft.carParkId ? (
          <ObservationTimer observedAt={draft.observedAt} stayApplies={draft.stayApplies} carPark={carPark} onChange={updateObservation} />
        ) : null}
        {step === 0 ? (
          <DuplicateWarning
            duplicates={duplicates}
            value={draft.duplicateReason}
            onChange={(duplicateReason) => {
              draftApi.updateFields({ duplicateReason });
              clearErrors('duplicateReason');
            }}
            errorMessage={stepErrors.duplicateReason}
          />
        ) : null}
        {step === 0 && !draft.pcnId ? (
          <PermitWarning
            permit={heldPermit}
            serverMessage={serverPermitMessage}
            value={draft.permitOverrideReason ?? ''}
            onChange={(permitOverrideReason) => {
              draftApi.updateFields({ permitOverrideReason });
              clearErrors('permitOverrideReason');
            }}
            errorMessage={stepErrors.permitOverrideReason}
            inputRef={fieldRefs.permitOverrideReason}
          />
        ) : null}
        {step === 1 ? (
          <OffenceStep
            draft={draft}
            errors={stepErrors}
            fieldRefs={fieldRefs}
            onChange={draftApi.updateFields}
            recentLocations={readRecentLocations(userId, draft.carParkId)}
          />
        ) : null}
        {step === 2 ? (
          <EvidenceStep
            draft={draft}
            hasError={Boolean(problem)}
            problemId={problemId}
            pendingPhotos={draftApi.pendingPhotos}
            inputRef={fieldRefs.images}
            onAddPhotos={(files, shots) => void draftApi.addPhotos(files, shots)}
            onRemovePhoto={draftApi.removePhoto}
            onRemoveExistingImage={draftApi.removeExistingImage}
            onChangeShots={draftApi.setPhotoShots}
            onChangeChecklistWaived={(checklistWaived) => draftApi.updateFields({ checklistWaived })}
            onNext={handleNext}
          />
        ) : null}
        {step === 3 ? (
          <ReviewStep
            draft={draft}
            carParks={carParks}
            onEditStep={goToStep}
            errors={stepErrors}
            servedByRef={fieldRefs.noticeServedBy}
            noticeTerms={noticeTerms}
            onServed={(noticeServedBy) =>
              // The tap is the moment of service (or of the driver leaving): its device time is kept.
              draftApi.updateFields({ noticeServedBy, noticeServedAt: new Date(Date.now()).toISOString() })
            }
            firstSeenRef={fieldRefs.firstSeenAt}
            onFirstSeen={(firstSeenAt) => draftApi.updateFields({ firstSeenAt })}
          />
        ) : null}
        {step === 3 ? (
          <ObservationTimer
            observedAt={draft.observedAt}
            stayApplies={draft.stayApplies}
            carPark={carPark}
            onChange={updateObservation}
            showControls={false}
          />
        ) : null}
      </section>
      {/* Fixed to the bottom of a phone's screen (app/styles/wizard.css), above the keyboard. */}
      <div className="wizard-actions">
        {problem ? (
          <p id={problemId} className="wizard-actions__problem" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="wizard-actions__buttons">
          <Button variant="secondary" isDisabled={step === 0 || isSubmitting} onPress={() => goToStep(step - 1)}>
            <ChevronLeft aria-hidden="true" size={20} />
            {SCREEN_TEXTS.back}
          </Button>
          {!isLastStep ? (
            <Button type="submit" isDisabled={isBusy}>
              {SCREEN_TEXTS.next}
              <ChevronRight aria-hidden="true" size={20} />
            </Button>
          ) : (
            // Blocked looks blocked; aria-disabled keeps it focusable, and the reason is beside it.
            <Button
              type="submit"
              isDisabled={isBusy}
              aria-disabled={isSubmitBlocked || undefined}
              className={isSubmitBlocked ? 'button--blocked' : undefined}
            >
              <Send aria-hidden="true" size={18} />
              {SCREEN_TEXTS.submitPcn}
            </Button>
          )}
        </div>
      </div>
      {isSubmitting && draft.pcnId ? <Spinner label="Sending…" /> : null}
    </form>
  );
}
