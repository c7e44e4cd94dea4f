import { useState } from 'react';
import {
  NOTICE_SERVED_BY_OPTIONS,
  NOTICE_SERVED_LEGEND,
  ERROR_MESSAGES,
  VALIDATION_MESSAGES,
  type NoticeServedBy,
  type Pcn,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { RadioField } from '../../../lib/radio-field.tsx';
import { DateField } from '../../../lib/date-field.tsx';
import { instantFromUkWallClock, ukWallClockInput } from '../../../lib/format-date.ts';
import { TextField } from '../../../lib/text-field.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { correctNoticeService } from '../api/pcns.ts';

/**
 * An admin corrects how or when the notice to driver was served (the officer tapped the wrong
 * choice, or recorded none), saying why: the route to the keeper follows the service, so the
 * reason goes into the audit trail with the change.
 */
export function ServiceCorrection({ pcn, onCorrected }: { pcn: Pcn; onCorrected: (updated: Pcn) => void }) {
  const [isOpen, setOpen] = useState(false);
  const [servedBy, setServedBy] = useState<NoticeServedBy | null>(pcn.noticeToDriver?.servedBy ?? null);
  const [servedAt, setServedAt] = useState(ukWallClockInput(pcn.noticeToDriver?.servedAt ?? pcn.issuedAt ?? pcn.createdAt));
  const [reason, setReason] = useState('');
  const form = useFormSubmit({
    fallbackMessage: ERROR_MESSAGES.updatePcn,
    // A service before the vehicle was first seen is refused on firstSeenAt: here the time being
    // corrected is the service's, so the message goes beside it.
    mapErrors: ({ firstSeenAt, ...errors }) => (firstSeenAt ? { ...errors, noticeServedAt: firstSeenAt } : errors),
  });
  const { errors } = form;

  const handleSubmit = form.handle(
    () => {
      const at = instantFromUkWallClock(servedAt);
      const fieldErrors: Record<string, string> = {};
      if (!servedBy) fieldErrors.noticeServedBy = VALIDATION_MESSAGES.noticeServedByRequired;
      if (!at) fieldErrors.noticeServedAt = VALIDATION_MESSAGES.noticeServedAtInvalid;
      if (!reason.trim()) fieldErrors.serviceCorrectionReason = VALIDATION_MESSAGES.serviceCorrectionReasonRequired;
      if (Object.keys(fieldErrors).length > 0) return { success: false, fieldErrors };
      return { success: true, data: { noticeServedBy: servedBy!, noticeServedAt: at!, reason: reason.trim() } } as const;
    },
    async (correction) => {
      onCorrected(await correctNoticeService(pcn.id, correction));
      setOpen(false);
      setReason('');
    },
  );

  return (
    <>
      <Button variant="secondary" onPress={() => setOpen(true)}>
        Correct the service
      </Button>
      <ModalDialog title="Correct the service" isOpen={isOpen} onClose={() => setOpen(false)} isBusy={form.isBusy}>
        <form className="form-stack" onSubmit={handleSubmit} noValidate>
          {form.formError ? <Alert>{form.formError}</Alert> : null}
          <RadioField
            label={NOTICE_SERVED_LEGEND}
            options={NOTICE_SERVED_BY_OPTIONS}
            value={servedBy}
            onChange={(value) => setServedBy(value as NoticeServedBy)}
            errorMessage={errors.noticeServedBy}
            isRequired
          />
          <DateField
            withTime
            label="Served at"
            name="noticeServedAt"
            value={servedAt}
            onChange={setServedAt}
            errorMessage={errors.noticeServedAt}
            isRequired
          />
          <TextField
            label="Why is it corrected?"
            name="serviceCorrectionReason"
            value={reason}
            onChange={setReason}
            errorMessage={errors.serviceCorrectionReason}
            isMultiline
            isRequired
            description="Kept in the audit trail with the change."
          />
          <div className="button-row">
            <Button variant="secondary" onPress={() => setOpen(false)} isDisabled={form.isBusy}>
              Cancel
            </Button>
            <Button type="submit" isDisabled={form.isBusy}>
              {form.isBusy ? 'Saving...' : 'Save the correction'}
            </Button>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}
