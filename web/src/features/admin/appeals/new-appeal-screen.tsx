import { useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ChevronLeft } from 'lucide-react';
import {
  APPEAL_CHANNEL_LABELS,
  APPEAL_MESSAGES,
  APPEAL_REASON_LABELS,
  APPEAL_REASONS,
  APPEAL_TEXT_MAX,
  ENTERED_APPEAL_CHANNELS,
  ENTERED_APPEAL_MULTIPART_FIELDS,
  enteredAppealInputSchema,
  ERROR_MESSAGES,
  fieldErrors,
  MAX_APPEAL_ATTACHMENT_BYTES,
  MAX_APPEAL_ATTACHMENTS,
  type Pcn,
  ukDate,
} from '@parkpatrol/shared';
import { paths } from '../../../config/paths.ts';
import { Alert } from '../../../lib/alert.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { Button, LinkButton } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { FieldNotes, fieldNoteIds } from '../../../lib/field-notes.tsx';
import { PageHeading } from '../../../lib/page-heading.tsx';
import { compressPhoto } from '../../../lib/photos/compress-photo.ts';
import { RadioField } from '../../../lib/radio-field.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { DateField } from '../../../lib/date-field.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { APPEAL_ENTRY_FAILED, enterAppeal } from '../api/appeals.ts';
import { getAdminPcn } from '../api/pcns.ts';
import '../admin.css';

const CHANNEL_OPTIONS = ENTERED_APPEAL_CHANNELS.map((id) => ({ id, label: APPEAL_CHANNEL_LABELS[id] }));
const REASON_OPTIONS = APPEAL_REASONS.map((id) => ({ id, label: APPEAL_REASON_LABELS[id] }));
const DRIVER_OPTIONS = [
  { id: 'yes', label: 'Yes, the appellant was driving' },
  { id: 'no', label: 'No, the keeper or another person' },
];
const FIELD_ORDER = [
  'channel',
  'receivedOn',
  'name',
  'email',
  'address',
  'wasDriver',
  'driverName',
  'driverAddress',
  'reason',
  'text',
  'attachments',
] as const;
const ATTACHMENTS_DESCRIPTION = `Up to ${MAX_APPEAL_ATTACHMENTS} photos or PDFs: the letter or email itself, and what came with it.`;

type Attachment = { id: string; file: File };

/** Today in the UK, as the date input writes it (yyyy-mm-dd): the latest day an appeal can have come. */
function todayInUk(): string {
  return ukDate(new Date());
}

/**
 * /admin/appeals/new?pcn={id}: an appeal that came by email, post or phone, entered for the
 * motorist (decision 0024). It is the charge's one appeal, under the online appeal's rules, from
 * the day it was received; an appeal by post may come without an email, and its letters go by post.
 */
export function NewAppealScreen() {
  const [params] = useSearchParams();
  const pcnId = params.get('pcn') ?? '';
  const pcn = useAsync(() => getAdminPcn(pcnId), [pcnId], ERROR_MESSAGES.fetchPcn);
  return (
    <div className="page">
      <nav className="review-nav" aria-label="Appeal navigation">
        <LinkButton href={paths.admin.appeals} variant="text">
          <ChevronLeft aria-hidden="true" size={20} />
          Back to appeals
        </LinkButton>
      </nav>
      <PageHeading>Record an appeal</PageHeading>
      {pcn.isLoading && !pcn.data ? <Spinner /> : null}
      {pcn.error ? <Alert>{pcn.error.message}</Alert> : null}
      {pcn.data ? <NewAppealForm pcn={pcn.data} onConflict={pcn.reload} /> : null}
    </div>
  );
}

function NewAppealForm({ pcn, onConflict }: { pcn: Pcn; onConflict: () => void }) {
  const navigate = useNavigate();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [values, setValues] = useState({
    channel: '',
    receivedOn: todayInUk(),
    name: '',
    email: '',
    address: '',
    wasDriver: '',
    driverName: '',
    driverAddress: '',
    reason: '',
    text: '',
  });
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const set = (name: keyof typeof values) => (value: string | null) => setValues((current) => ({ ...current, [name]: value ?? '' }));

  if (pcn.appeal) {
    return (
      <Card title={`Charge ${pcn.pcnNumber}`} titleId="new-appeal-charge-title">
        <Alert tone="info">{`This charge already has an appeal, ${pcn.appeal.reference}: a charge has one appeal, however it came.`}</Alert>
        <LinkButton href={paths.admin.appeal(pcn.appeal.id)} variant="secondary">
          Open the appeal
        </LinkButton>
      </Card>
    );
  }

  const focusFirstError = (problems: Record<string, string>) => {
    const first = FIELD_ORDER.find((name) => problems[name]);
    requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"] :is(input, textarea, select)`)?.focus(),
    );
  };

  const addFiles = (files: FileList | null) => {
    if (!files) return;
    const added = [...files].map((file) => ({ id: crypto.randomUUID(), file }));
    const next = [...attachments, ...added];
    const problem =
      next.length > MAX_APPEAL_ATTACHMENTS
        ? APPEAL_MESSAGES.tooManyAttachments
        : added.some(({ file }) => !file.type.startsWith('image/') && file.type !== 'application/pdf')
          ? APPEAL_MESSAGES.attachmentType
          : added.some(({ file }) => file.type === 'application/pdf' && file.size > MAX_APPEAL_ATTACHMENT_BYTES)
            ? APPEAL_MESSAGES.attachmentTooLarge
            : null;
    setErrors((current) => {
      const { attachments: _gone, ...rest } = current;
      return problem ? { ...rest, attachments: problem } : rest;
    });
    if (!problem) setAttachments(next);
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (progress) return;
    setFormError(null);
    // The shared schema checks here what the server will; the day against today and the notices is the server's.
    const parsed = enteredAppealInputSchema.safeParse({ ...values, pcnId: pcn.id });
    if (!parsed.success) {
      const problems = fieldErrors(parsed.error);
      setErrors(problems);
      focusFirstError(problems);
      return;
    }
    setErrors({});
    try {
      const form = new FormData();
      form.append(ENTERED_APPEAL_MULTIPART_FIELDS.pcnId, pcn.id);
      for (const [name, value] of Object.entries(values)) form.append(name, value);
      for (const [index, { file }] of attachments.entries()) {
        setProgress(`Preparing file ${index + 1} of ${attachments.length}…`);
        if (file.type === 'application/pdf') {
          form.append(ENTERED_APPEAL_MULTIPART_FIELDS.attachments, file, file.name);
        } else {
          const photo = await compressPhoto(file);
          form.append(ENTERED_APPEAL_MULTIPART_FIELDS.attachments, new Blob([photo.bytes], { type: photo.type }), photo.name);
        }
      }
      setProgress('Recording the appeal…');
      const appeal = await enterAppeal(form, idempotencyKey);
      void navigate(paths.admin.appeal(appeal.id));
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError(APPEAL_ENTRY_FAILED);
      // Another appeal reached the charge first: show it.
      if (failure.status === 409) {
        onConflict();
        return;
      }
      setErrors(failure.fields);
      setFormError(failure.message);
      if (Object.keys(failure.fields).length > 0) focusFirstError(failure.fields);
    } finally {
      setProgress(null);
    }
  };

  const isPost = values.channel === 'POST';
  const attachmentNotes = fieldNoteIds('new-appeal-attachments', ATTACHMENTS_DESCRIPTION, errors.attachments);
  return (
    <Card title={`Charge ${pcn.pcnNumber}, ${pcn.vehicleRegistration}`} titleId="new-appeal-charge-title">
      <form ref={formRef} className="form-stack" onSubmit={handleSubmit} noValidate aria-label="Appeal by email, post or phone">
        <p className="muted">
          It is the charge’s one appeal, as if made online on the day it was received: the charge is on hold from that day and the answer is
          due 28 days after it. The acknowledgement and the decision are emailed when there is an email address; the decision letter can
          always be downloaded to post.
        </p>
        {formError ? <Alert>{formError}</Alert> : null}
        <div data-field="channel">
          <RadioField
            label="How it came"
            options={CHANNEL_OPTIONS}
            value={values.channel || null}
            onChange={set('channel')}
            errorMessage={errors.channel}
            isRequired
          />
        </div>
        <div data-field="receivedOn">
          <DateField
            label="Received on"
            name="receivedOn"
            description="The day the email, letter or call came in: not in the future, not before the first notice."
            value={values.receivedOn}
            onChange={set('receivedOn')}
            max={todayInUk()}
            errorMessage={errors.receivedOn}
            isRequired
          />
        </div>
        <div data-field="name">
          <TextField
            label="Appellant’s name"
            name="name"
            value={values.name}
            onChange={set('name')}
            errorMessage={errors.name}
            isRequired
          />
        </div>
        <div data-field="email">
          <TextField
            label={isPost ? 'Appellant’s email (optional for post)' : 'Appellant’s email'}
            name="email"
            type="email"
            description={isPost ? 'Without one, the acknowledgement is not sent and the decision letter goes by post.' : undefined}
            value={values.email}
            onChange={set('email')}
            errorMessage={errors.email}
            isRequired={!isPost}
          />
        </div>
        <div data-field="address">
          <TextField
            label="Appellant’s postal address"
            name="address"
            isMultiline
            rows={3}
            value={values.address}
            onChange={set('address')}
            errorMessage={errors.address}
            isRequired
          />
        </div>
        <div data-field="wasDriver">
          <RadioField
            label="Was the appellant driving?"
            options={DRIVER_OPTIONS}
            value={values.wasDriver || null}
            onChange={set('wasDriver')}
            errorMessage={errors.wasDriver}
            isRequired
          />
        </div>
        {values.wasDriver === 'no' ? (
          <fieldset className="appeal-entry__driver">
            <legend>The driver, if the appellant named them (optional)</legend>
            <div data-field="driverName">
              <TextField
                label="Driver’s name"
                name="driverName"
                value={values.driverName}
                onChange={set('driverName')}
                errorMessage={errors.driverName}
              />
            </div>
            <div data-field="driverAddress">
              <TextField
                label="Driver’s address for service"
                name="driverAddress"
                isMultiline
                rows={3}
                value={values.driverAddress}
                onChange={set('driverAddress')}
                errorMessage={errors.driverAddress}
              />
            </div>
          </fieldset>
        ) : null}
        <div data-field="reason">
          <SelectField
            label="Reason"
            name="reason"
            options={REASON_OPTIONS}
            placeholder="Choose a reason"
            value={values.reason || null}
            onChange={set('reason')}
            errorMessage={errors.reason}
            isRequired
          />
        </div>
        <div data-field="text">
          <TextField
            label="The appeal"
            name="text"
            isMultiline
            rows={8}
            maxLength={APPEAL_TEXT_MAX}
            description="The appellant’s words as written, or a note of what they said on the phone."
            value={values.text}
            onChange={set('text')}
            errorMessage={errors.text}
            isRequired
          />
        </div>
        <div className="field" data-field="attachments">
          <label className="field__label" htmlFor="new-appeal-attachments">
            Letter, email or documents (optional)
          </label>
          <input
            id="new-appeal-attachments"
            type="file"
            accept="image/*,application/pdf"
            multiple
            aria-describedby={[attachmentNotes.descriptionId, attachmentNotes.errorId].filter(Boolean).join(' ')}
            aria-invalid={errors.attachments ? true : undefined}
            onChange={(event) => {
              addFiles(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
          <FieldNotes id="new-appeal-attachments" description={ATTACHMENTS_DESCRIPTION} errorMessage={errors.attachments} />
          {attachments.length > 0 ? (
            <ul className="appeal-entry__files" aria-label="Files to send">
              {attachments.map(({ id, file }) => (
                <li key={id}>
                  <span>{file.name}</span>
                  <Button
                    variant="secondary"
                    onPress={() => setAttachments((current) => current.filter((item) => item.id !== id))}
                    aria-label={`Remove ${file.name}`}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        {progress ? <p role="status">{progress}</p> : null}
        <div className="form-actions">
          <Button type="submit" isDisabled={progress !== null}>
            Record appeal
          </Button>
        </div>
      </form>
    </Card>
  );
}
