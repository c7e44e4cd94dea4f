import { useCallback, useEffect, useMemo } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ERROR_MESSAGES, isEditableStatus, SCREEN_TEXTS, SERVER_MESSAGES, type CarPark, type Pcn } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { LinkButton } from '../../../lib/button.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { useCurrentUser } from '../../../lib/current-user.tsx';
import { useFilingCarParks } from '../../../lib/filing-data.ts';
import { useCachedAsync } from '../../../lib/use-cached-async.ts';
import { noticeCarParkOf } from '../notice-to-driver/notice-facts.ts';
import { getPcn } from '../api/get-pcn.ts';
import { createDraftFromPcn, createEmptyDraft, newDraftId, type PcnDraft } from '../pcn-draft.ts';
import { editDraftKey } from './draft-store.ts';
import { PcnWizard } from './pcn-wizard.tsx';
import type { CarParkOption } from './wizard-types.ts';

/** Query parameter holding a new notice's draft id, so a reload resumes the same draft. */
export const DRAFT_PARAM = 'draft';

/** /pcn/new?draft={id} and /pcn/{id}/edit. */
export function PcnFormScreen() {
  const { id } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const userId = useCurrentUser()?.id ?? '';
  const isEdit = Boolean(id);
  const draftId = searchParams.get(DRAFT_PARAM);
  const title = isEdit ? SCREEN_TEXTS.editPcn : SCREEN_TEXTS.submitNewPcn;
  // Car parks come from the phone's copy first, signal or not, kept fresh from sign-in on and
  // refreshed when signal comes back while the form is open (lib/filing-data.ts).
  const carParks = useFilingCarParks(userId || null);
  const pcn = useCachedAsync<Pcn | null>(
    id ? `pcn:${id}` : null,
    () => (id ? getPcn(id) : Promise.resolve(null)),
    [id],
    ERROR_MESSAGES.fetchPcn,
  );

  // A new notice gets its id at once, in the URL: a reload (or a crash) comes back to this draft.
  const startNewDraft = useCallback(() => navigate({ search: `?${DRAFT_PARAM}=${newDraftId()}` }, { replace: true }), [navigate]);
  useEffect(() => {
    if (!isEdit && !draftId) void startNewDraft();
  }, [isEdit, draftId, startNewDraft]);

  const createInitial = useCallback(
    () => (pcn.data ? createDraftFromPcn(pcn.data) : createEmptyDraft(new Date(), draftId ?? newDraftId())),
    [pcn.data, draftId],
  );
  // Images on the server are shown from fresh signed URLs, whatever the stored draft kept.
  const reconcile = useMemo(
    () =>
      pcn.data
        ? (stored: PcnDraft): PcnDraft => {
            const fresh = createDraftFromPcn(pcn.data as Pcn).existingImages;
            return { ...stored, existingImages: fresh.filter((image) => !stored.removeImageIds.includes(image.id)) };
          }
        : undefined,
    [pcn.data],
  );

  let body;
  if (!isEdit && !draftId) {
    body = <Spinner />;
  } else if (pcn.isLoading && !pcn.data) {
    body = <Spinner />;
  } else if (isEdit && pcn.error) {
    body = (
      <>
        <Alert>{pcn.error.status === 404 ? ERROR_MESSAGES.pcnNotFound : pcn.error.message}</Alert>
        <div>
          <LinkButton href={paths.pcns} variant="secondary">
            {SCREEN_TEXTS.backToList}
          </LinkButton>
        </div>
      </>
    );
  } else if (pcn.data && !isEditableStatus(pcn.data.status)) {
    body = (
      <>
        <Alert tone="info">{SERVER_MESSAGES.pcnNotEditable}</Alert>
        <div>
          <LinkButton href={paths.pcn(pcn.data.id)} variant="secondary">
            {SCREEN_TEXTS.back}
          </LinkButton>
        </div>
      </>
    );
  } else {
    body = (
      <PcnWizard
        key={id ? editDraftKey(id) : (draftId ?? '')}
        draftKey={id ? editDraftKey(id) : (draftId ?? '')}
        userId={userId}
        createInitial={createInitial}
        reconcile={reconcile}
        onDraftLocked={startNewDraft}
        carParks={withCurrentCarPark(carParks.carParks ?? [], pcn.data)}
        carParksError={carParks.error ?? undefined}
        isLoadingCarParks={carParks.isLoading}
      />
    );
  }

  return (
    <div className="page">
      <PageHeading>{title}</PageHeading>
      {body}
    </div>
  );
}

/** An edited PCN keeps its car park as a choice even if the officer is no longer assigned to it. */
function withCurrentCarPark(carParks: CarPark[], pcn: Pcn | null | undefined): CarParkOption[] {
  // The stay settings drive the observation timer; a cached list from before them lacks them.
  const options: CarParkOption[] = carParks.map((carPark) => ({
    id: carPark.id,
    considerationMinutes: carPark.considerationMinutes,
    graceMinutes: carPark.graceMinutes,
    stayAppliesByDefault: carPark.stayAppliesByDefault,
    // Its name, and what a notice to driver prints.
    ...noticeCarParkOf(carPark),
  }));
  if (pcn?.carPark && !options.some((option) => option.id === pcn.carParkId)) options.push({ id: pcn.carParkId, name: pcn.carPark.name });
  return options;
}
