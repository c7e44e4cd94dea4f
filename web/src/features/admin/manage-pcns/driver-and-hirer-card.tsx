import { useState } from 'react';
import { Form } from 'react-aria-components';
import {
  describeKeeperNotice,
  driverInputSchema,
  formatCalendarDate,
  hirerInputSchema,
  keeperAddressBlock,
  NAMED_DRIVER_SOURCE_LABELS,
  NAMED_DRIVER_SOURCES,
  SENT_DOCUMENT_KIND_LABELS,
  ukDate,
  type LetterPosting,
  type Pcn,
  type PcnLetterKind,
  type PostalParty,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { toApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { RadioField } from '../../../lib/radio-field.tsx';
import { saveBlobAsFile } from '../../../lib/save-file.ts';
import { DateField } from '../../../lib/date-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import {
  DRIVER_SAVE_FAILED,
  HIRER_SAVE_FAILED,
  LETTER_FAILED,
  LETTER_POSTED_FAILED,
  makePcnLetter,
  markPcnLetterPosted,
  saveHirer,
  saveNamedDriver,
} from '../api/driver-and-hirer.ts';
import { getAdminPcn } from '../api/pcns.ts';
import { Checkbox } from '../components/checkbox.tsx';

/**
 * Who else a letter goes to (decision 0027): the hirer a hire firm named (Schedule 4, paragraphs
 * 13 and 14), the driver a keeper or an appeal named, and, on land Schedule 4 does not reach, the
 * registered keeper asked to name the driver. Each letter is made for a posting day, kept with the
 * notice, then marked posted. Personal data: admins only.
 */
export function DriverAndHirerCard({ pcn, onChanged }: { pcn: Pcn; onChanged: (updated: Pcn) => void }) {
  const [editing, setEditing] = useState<'hirer' | 'driver' | null>(null);
  const isHireFirm = pcn.keeper?.keeperType === 'HIRE_COMPANY';
  const noKeeperLiability = pcn.keeperNotice.route === 'NOT_AVAILABLE';
  const refresh = async () => onChanged(await getAdminPcn(pcn.id));
  return (
    <Card title="Hirer, driver and other letters" titleId="review-letters-title">
      <div className="form-stack">
        {noKeeperLiability ? (
          <section aria-labelledby="request-to-name-title" className="form-stack">
            <h3 id="request-to-name-title">Request to name the driver</h3>
            <p className="muted">{describeKeeperNotice(pcn.keeperNotice)}. The letter to the keeper claims no keeper liability.</p>
            <LetterActions pcn={pcn} kind="REQUEST_TO_NAME_DRIVER" posting={requestPosting(pcn)} onPosted={refresh} />
          </section>
        ) : null}

        {isHireFirm ? (
          <section aria-labelledby="hirer-title" className="form-stack">
            <h3 id="hirer-title">Hirer</h3>
            {pcn.hirer ? (
              <>
                <PartyAddress party={pcn.hirer} />
                <p>
                  Documents received {formatCalendarDate(pcn.hirer.documentsGivenOn)}. Post the notice to hirer between{' '}
                  {formatCalendarDate(pcn.hirer.window.firstPostingDate)} and {formatCalendarDate(pcn.hirer.window.lastPostingDate)}.
                </p>
                <LetterActions pcn={pcn} kind="NOTICE_TO_HIRER" posting={pcn.hirer.notice} onPosted={refresh} />
              </>
            ) : (
              <p className="muted">
                The keeper is a hire or lease company. Once it sends the hirer's details with its signed statement, the hire agreement and
                the hirer's statement of liability, record them here.
              </p>
            )}
            <div className="button-row">
              <Button variant="secondary" onPress={() => setEditing('hirer')}>
                {pcn.hirer ? 'Edit the hirer' : 'Record the hirer'}
              </Button>
            </div>
          </section>
        ) : null}

        <section aria-labelledby="driver-title" className="form-stack">
          <h3 id="driver-title">Named driver</h3>
          {pcn.namedDriver ? (
            <>
              <PartyAddress party={pcn.namedDriver} />
              <p className="muted">
                Named in {NAMED_DRIVER_SOURCE_LABELS[pcn.namedDriver.source].toLowerCase()}. The keeper is no longer pursued.
              </p>
              <LetterActions pcn={pcn} kind="NOTICE_TO_NAMED_DRIVER" posting={pcn.namedDriver.notice} onPosted={refresh} />
            </>
          ) : (
            <p className="muted">
              When the keeper's reply or an appeal names the driver with an address, record it to write to the driver.
            </p>
          )}
          <div className="button-row">
            <Button variant="secondary" onPress={() => setEditing('driver')}>
              {pcn.namedDriver ? 'Edit the named driver' : 'Name the driver'}
            </Button>
          </div>
        </section>
      </div>
      {editing ? (
        <PartyForm
          pcn={pcn}
          kind={editing}
          onClose={() => setEditing(null)}
          onSaved={(updated) => {
            onChanged(updated);
            setEditing(null);
          }}
        />
      ) : null}
    </Card>
  );
}

function requestPosting(pcn: Pcn): LetterPosting {
  return { postedOn: pcn.keeperNotice.postedOn, givenOn: pcn.keeperNotice.deemedGivenOn, proofReference: null };
}

function PartyAddress({ party }: { party: PostalParty }) {
  return (
    <address className="keeper-address">
      {keeperAddressBlock(party).map((line) => (
        <span key={line}>{line}</span>
      ))}
    </address>
  );
}

/** Make the letter for a posting day, then mark it posted that day: as the keeper queue does, for one notice. */
function LetterActions({
  pcn,
  kind,
  posting,
  onPosted,
}: {
  pcn: Pcn;
  kind: PcnLetterKind;
  posting: LetterPosting;
  onPosted: () => Promise<void>;
}) {
  const label = SENT_DOCUMENT_KIND_LABELS[kind];
  const [postOn, setPostOn] = useState(() => ukDate(new Date()));
  const [proof, setProof] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  if (posting.postedOn) {
    return (
      <p>
        {label} posted on {formatCalendarDate(posting.postedOn)}
        {posting.givenOn ? `, presumed given on ${formatCalendarDate(posting.givenOn)}` : ''}.
      </p>
    );
  }
  const run = async (action: () => Promise<void>, fallback: string) => {
    setProblem(null);
    setNotice(null);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(postOn)) {
      setFieldError('Give the posting day');
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      await action();
    } catch (e) {
      const failure = toApiError(e, fallback);
      const fieldMessage = failure.fields.postOn ?? failure.fields.postedOn;
      if (fieldMessage) setFieldError(fieldMessage);
      // A refusal names the notice with why: the reason is what the admin needs.
      else setProblem(failure.fields[pcn.id] ? `${failure.message}. ${failure.fields[pcn.id]}` : failure.message);
    } finally {
      setBusy(false);
    }
  };
  const make = () =>
    run(async () => {
      saveBlobAsFile(await makePcnLetter(pcn.id, kind, postOn), `${kind.toLowerCase().replace(/_/g, '-')}-${postOn}.pdf`);
      setNotice(`${label} dated ${formatCalendarDate(postOn)} made and kept with the notice. Mark it posted once it is in the post.`);
    }, LETTER_FAILED);
  const markPosted = () =>
    run(async () => {
      await markPcnLetterPosted(pcn.id, kind, postOn, proof.trim());
      await onPosted();
    }, LETTER_POSTED_FAILED);
  return (
    <div className="form-stack">
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {problem ? <Alert>{problem}</Alert> : null}
      <div className="form-grid">
        <DateField
          label={`${label}: posting day`}
          name={`${kind}-postOn`}
          value={postOn}
          onChange={setPostOn}
          errorMessage={fieldError}
          description="Printed on the letter as the day it was sent"
          isRequired
        />
        <TextField label="Proof of posting reference" name={`${kind}-proof`} value={proof} onChange={setProof} />
      </div>
      <div className="button-row">
        <Button isDisabled={isBusy} onPress={() => void make()}>
          Make the {label.toLowerCase()}
        </Button>
        <Button variant="secondary" isDisabled={isBusy} onPress={() => void markPosted()}>
          Mark posted
        </Button>
      </div>
    </div>
  );
}

const SOURCE_OPTIONS = NAMED_DRIVER_SOURCES.map((source) => ({ id: source, label: NAMED_DRIVER_SOURCE_LABELS[source] }));

function PartyForm({
  pcn,
  kind,
  onClose,
  onSaved,
}: {
  pcn: Pcn;
  kind: 'hirer' | 'driver';
  onClose: () => void;
  onSaved: (pcn: Pcn) => void;
}) {
  const existing: PostalParty | null = (kind === 'hirer' ? pcn.hirer : pcn.namedDriver) ?? null;
  const [values, setValues] = useState({
    title: existing?.title ?? '',
    firstNames: existing?.firstNames ?? '',
    lastName: existing?.lastName ?? '',
    companyName: existing?.companyName ?? '',
    address1: existing?.addressLines[0] ?? '',
    address2: existing?.addressLines[1] ?? '',
    address3: existing?.addressLines[2] ?? '',
    address4: existing?.addressLines[3] ?? '',
    postcode: existing?.postcode ?? '',
    hireAgreementReference: pcn.hirer?.hireAgreementReference ?? '',
    documentsGivenOn: pcn.hirer?.documentsGivenOn ?? ukDate(new Date()),
  });
  const [documents, setDocuments] = useState({ hireFirmStatement: false, hireAgreementCopy: false, statementOfLiability: false });
  const [source, setSource] = useState<string | null>(pcn.namedDriver?.source ?? null);
  const form = useFormSubmit({
    fallbackMessage: kind === 'hirer' ? HIRER_SAVE_FAILED : DRIVER_SAVE_FAILED,
    // The address is one field to the schema and four to the form: its message goes on the first line.
    mapErrors: (errors) => {
      const { addressLines, ...rest } = errors;
      return addressLines ? { ...rest, address1: addressLines } : rest;
    },
  });
  const { errors } = form;
  const set = (field: keyof typeof values) => (value: string) => setValues((previous) => ({ ...previous, [field]: value }));
  const party = {
    title: values.title,
    firstNames: values.firstNames,
    lastName: values.lastName,
    companyName: values.companyName,
    addressLines: [values.address1, values.address2, values.address3, values.address4],
    postcode: values.postcode,
  };
  // One form for two records: each submits through its own schema and route.
  const handleSubmit =
    kind === 'hirer'
      ? form.handle(
          () =>
            hirerInputSchema.safeParse({
              ...party,
              hireAgreementReference: values.hireAgreementReference,
              documentsGivenOn: values.documentsGivenOn,
              ...documents,
            }),
          async (input) => onSaved(await saveHirer(pcn.id, input)),
        )
      : form.handle(
          () => driverInputSchema.safeParse({ ...party, source }),
          async (input) => onSaved(await saveNamedDriver(pcn.id, input)),
        );
  const field = (name: keyof typeof values, label: string, extra: { isRequired?: boolean; description?: string } = {}) => (
    <TextField label={label} name={name} value={values[name]} onChange={set(name)} errorMessage={errors[name]} {...extra} />
  );
  const documentBox = (name: keyof typeof documents, text: string) => (
    <div>
      <Checkbox
        name={name}
        isSelected={documents[name]}
        onChange={(isSelected) => setDocuments((previous) => ({ ...previous, [name]: isSelected }))}
        isInvalid={Boolean(errors[name])}
      >
        {text}
      </Checkbox>
      {errors[name] ? (
        <p className="field__error" role="alert">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );
  return (
    <ModalDialog title={kind === 'hirer' ? 'The hirer' : 'The named driver'} isOpen onClose={onClose} isBusy={form.isBusy} size="large">
      <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
        {form.formError ? <Alert>{form.formError}</Alert> : null}
        {kind === 'driver' ? (
          <RadioField
            label="Who named the driver?"
            options={SOURCE_OPTIONS}
            value={source}
            onChange={setSource}
            errorMessage={errors.source}
            isRequired
          />
        ) : null}
        <div className="form-grid">
          {field('title', 'Title')}
          {field('firstNames', 'First names')}
          {field('lastName', 'Last name', { isRequired: kind === 'driver' })}
          {kind === 'hirer' ? field('companyName', 'Company name', { description: 'When the hirer is a company' }) : null}
          {field('address1', 'Address line 1', {
            isRequired: true,
            description:
              kind === 'hirer' ? 'The address in the hirer’s statement of liability' : 'Where the driver lives or can be contacted',
          })}
          {field('address2', 'Address line 2')}
          {field('address3', 'Town or city')}
          {field('address4', 'County')}
          {field('postcode', 'Postcode', { isRequired: true })}
        </div>
        {kind === 'hirer' ? (
          <fieldset className="form-fieldset">
            <legend className="form-fieldset__legend">The hire firm's documents (paragraph 13(2))</legend>
            <div className="form-grid">
              <DateField
                label="Day the documents were received"
                name="documentsGivenOn"
                value={values.documentsGivenOn}
                onChange={set('documentsGivenOn')}
                errorMessage={errors.documentsGivenOn}
                description="The notice to hirer must be given within 21 days from the day after"
                isRequired
              />
              {field('hireAgreementReference', 'Hire agreement reference')}
            </div>
            {documentBox('hireFirmStatement', 'A statement signed for the hire firm that the vehicle was hired to this person')}
            {documentBox('hireAgreementCopy', 'A copy of the hire agreement')}
            {documentBox('statementOfLiability', 'A copy of the statement of liability the hirer signed')}
          </fieldset>
        ) : null}
        <div className="modal__actions">
          <Button variant="secondary" onPress={onClose} isDisabled={form.isBusy}>
            Cancel
          </Button>
          <Button type="submit" isDisabled={form.isBusy}>
            {form.isBusy ? 'Saving...' : kind === 'hirer' ? 'Save the hirer' : 'Save the driver'}
          </Button>
        </div>
      </Form>
    </ModalDialog>
  );
}
