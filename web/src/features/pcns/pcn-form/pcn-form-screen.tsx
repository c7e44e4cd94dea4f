import { useCallback } from 'react';
import { useParams } from 'react-router-dom';
import { ERROR_MESSAGES, isEditableStatus, SCREEN_TEXTS, SERVER_MESSAGES, type CarPark, type Pcn } from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { LinkButton } from '../../../lib/button.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { getCarParks } from '../api/get-car-parks.ts';
import { getPcn } from '../api/get-pcn.ts';
import { createDraftFromPcn, createEmptyDraft } from '../pcn-draft.ts';
import { editDraftKey, NEW_DRAFT_KEY } from './draft-store.ts';
import { PcnWizard } from './pcn-wizard.tsx';

/** /pcn/new and /pcn/{id}/edit. */
export function PcnFormScreen() {
  const { id } = useParams();
  const isEdit = Boolean(id);
  const title = isEdit ? SCREEN_TEXTS.editPcn : SCREEN_TEXTS.submitNewPcn;
  const carParks = useAsync(getCarParks, [], ERROR_MESSAGES.fetchCarParks);
  const pcn = useAsync<Pcn | null>(() => (id ? getPcn(id) : Promise.resolve(null)), [id], ERROR_MESSAGES.fetchPcn);

  const createInitial = useCallback(() => (pcn.data ? createDraftFromPcn(pcn.data) : createEmptyDraft()), [pcn.data]);

  let body;
  if (pcn.isLoading && !pcn.data) {
    body = <Spinner />;
  } else if (isEdit && pcn.error) {
    body = (
      <>
        <Alert>{pcn.error.status === 404 ? ERROR_MESSAGES.pcnNotFound : pcn.error.message}</Alert>
        <div>
          <LinkButton href={paths.pcns} variant="secondary">{SCREEN_TEXTS.backToList}</LinkButton>
        </div>
      </>
    );
  } else if (pcn.data && !isEditableStatus(pcn.data.status)) {
    body = (
      <>
        <Alert tone="info">{SERVER_MESSAGES.pcnNotEditable}</Alert>
        <div>
          <LinkButton href={paths.pcn(pcn.data.id)} variant="secondary">{SCREEN_TEXTS.back}</LinkButton>
        </div>
      </>
    );
  } else {
    body = (
      <PcnWizard
        key={id ? editDraftKey(id) : NEW_DRAFT_KEY}
        draftKey={id ? editDraftKey(id) : NEW_DRAFT_KEY}
        createInitial={createInitial}
        carParks={withCurrentCarPark(carParks.data ?? [], pcn.data)}
        carParksError={carParks.error?.message}
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
function withCurrentCarPark(carParks: CarPark[], pcn: Pcn | null | undefined): Array<{ id: string; name: string }> {
  const options = carParks.map((carPark) => ({ id: carPark.id, name: carPark.name }));
  if (pcn?.carPark && !options.some((option) => option.id === pcn.carParkId)) options.push({ id: pcn.carParkId, name: pcn.carPark.name });
  return options;
}
