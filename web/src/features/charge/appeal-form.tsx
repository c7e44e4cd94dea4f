import { useRef, useState, type FormEvent } from 'react';
import {
  APPEAL_MESSAGES,
  APPEAL_MULTIPART_FIELDS,
  APPEAL_REASON_LABELS,
  APPEAL_REASONS,
  APPEAL_TEXT_MAX,
  appealInputSchema,
  fieldErrors,
  formatCalendarDate,
  MAX_APPEAL_ATTACHMENT_BYTES,
  MAX_APPEAL_ATTACHMENTS,
  type AppealFiled,
} from '@parkpatrol/shared';
import { Alert } from '../../lib/alert.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { Button } from '../../lib/button.tsx';
import { FieldNotes, fieldNoteIds } from '../../lib/field-notes.tsx';
import { compressPhoto } from '../../lib/photos/compress-photo.ts';
import { RadioField } from '../../lib/radio-field.tsx';
import { SelectField } from '../../lib/select-field.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { APPEAL_SEND_FAILED, sendAppeal } from './charge-api.ts';

const REASON_OPTIONS = APPEAL_REASONS.map((id) => ({ id, label: APPEAL_REASON_LABELS[id] }));
const DRIVER_OPTIONS = [
  { id: 'yes', label: 'Yes, I was driving' },
  { id: 'no', label: 'No, I am the keeper or another person' },
];
const FIELD_ORDER = ['name', 'email', 'address', 'wasDriver', 'driverName', 'driverAddress', 'reason', 'text', 'attachments'] as const;

type Attachment = { id: string; file: File };
const ATTACHMENTS_DESCRIPTION = `Up to ${MAX_APPEAL_ATTACHMENTS} photos or PDFs, such as your ticket, permit or Blue Badge.`;

/**
 * The motorist's appeal: who they are, why, and up to six photos or PDFs. Photos are made small
 * on the phone as the officer's are; the same Idempotency-Key goes with every try of this form,
 * so a send whose answer was lost, sent again, makes no second appeal.
 */
export function AppealForm({
  accessToken,
  appealUntil,
  isLate,
  onSent,
  onAlreadyAppealed,
}: {
  accessToken: string;
  appealUntil: string | null;
  /** After the appeal period: the appeal is still taken, marked late, and holds nothing. */
  isLate: boolean;
  onSent: (filed: AppealFiled) => void;
  onAlreadyAppealed: () => void;
}) {
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [values, setValues] = useState({
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
    const parsed = appealInputSchema.safeParse(values);
    if (!parsed.success) {
      const problems = fieldErrors(parsed.error);
      setErrors(problems);
      focusFirstError(problems);
      return;
    }
    setErrors({});
    try {
      const form = new FormData();
      for (const [name, value] of Object.entries(values)) form.append(name, value);
      for (const [index, { file }] of attachments.entries()) {
        setProgress(`Preparing file ${index + 1} of ${attachments.length}…`);
        if (file.type === 'application/pdf') {
          form.append(APPEAL_MULTIPART_FIELDS.attachments, file, file.name);
        } else {
          const photo = await compressPhoto(file);
          form.append(APPEAL_MULTIPART_FIELDS.attachments, new Blob([photo.bytes], { type: photo.type }), photo.name);
        }
      }
      setProgress('Sending your appeal…');
      onSent(await sendAppeal(accessToken, form, idempotencyKey));
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError(APPEAL_SEND_FAILED);
      if (failure.status === 409) {
        onAlreadyAppealed();
        return;
      }
      setErrors(failure.fields);
      setFormError(failure.message);
      if (Object.keys(failure.fields).length > 0) focusFirstError(failure.fields);
    } finally {
      setProgress(null);
    }
  };

  const attachmentNotes = fieldNoteIds('appeal-attachments', ATTACHMENTS_DESCRIPTION, errors.attachments);
  return (
    <form ref={formRef} className="appeal-form" onSubmit={handleSubmit} noValidate aria-labelledby="appeal-form-title">
      <h2 id="appeal-form-title">Appeal this charge</h2>
      <p>
        {isLate
          ? `${APPEAL_MESSAGES.lateAppeal} The last day was ${formatCalendarDate(appealUntil ?? '')}.`
          : `${appealUntil ? `Appeal by ${formatCalendarDate(appealUntil)}. ` : ''}While we consider your appeal the charge is on hold: the amount due stays as it is today.`}{' '}
        We answer within 28 days, by email.
      </p>
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <div data-field="name">
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          value={values.name}
          onChange={set('name')}
          errorMessage={errors.name}
          isRequired
        />
      </div>
      <div data-field="email">
        <TextField
          label="Your email"
          name="email"
          type="email"
          autoComplete="email"
          description="We send the acknowledgement and our decision here."
          value={values.email}
          onChange={set('email')}
          errorMessage={errors.email}
          isRequired
        />
      </div>
      <div data-field="address">
        <TextField
          label="Your postal address"
          name="address"
          autoComplete="street-address"
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
          label="Were you driving?"
          options={DRIVER_OPTIONS}
          value={values.wasDriver || null}
          onChange={set('wasDriver')}
          errorMessage={errors.wasDriver}
          isRequired
        />
      </div>
      {values.wasDriver === 'no' ? (
        <fieldset className="appeal-form__driver">
          <legend>The driver, if you can name them (optional)</legend>
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
          label="Your appeal"
          name="text"
          isMultiline
          rows={8}
          maxLength={APPEAL_TEXT_MAX}
          description={`Tell us what happened, in your own words (${(APPEAL_TEXT_MAX - values.text.length).toLocaleString('en-GB')} characters left).`}
          value={values.text}
          onChange={set('text')}
          errorMessage={errors.text}
          isRequired
        />
      </div>
      <div className="field" data-field="attachments">
        <label className="field__label" htmlFor="appeal-attachments">
          Photos or documents (optional)
        </label>
        <input
          id="appeal-attachments"
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
        <FieldNotes id="appeal-attachments" description={ATTACHMENTS_DESCRIPTION} errorMessage={errors.attachments} />
        {attachments.length > 0 ? (
          <ul className="appeal-form__files" aria-label="Files to send">
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
      <button type="submit" className="button button--primary" disabled={progress !== null}>
        Send appeal
      </button>
    </form>
  );
}
