import { useState } from 'react';
import { Form } from 'react-aria-components';
import { setAsideAppealInputSchema, type Appeal, type AppealSetAside } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { ModalDialog } from '../../../lib/dialog.tsx';
import { TextField } from '../../../lib/text-field.tsx';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { APPEAL_SET_ASIDE_FAILED, setAsideAppeal } from '../api/appeals.ts';

/**
 * 'Set aside': an open appeal filed by someone who is not the motorist (anyone who read the
 * windscreen notice can file one) is set aside with a reason, kept in the audit trail. The
 * charge's one appeal is then free: the motorist appeals online, or their appeal is recorded here.
 */
export function SetAsideAppeal({
  appeal,
  onSetAside,
  onStale,
}: {
  appeal: Appeal;
  onSetAside: (setAside: AppealSetAside) => void;
  onStale: () => void;
}) {
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const form = useFormSubmit({
    fallbackMessage: APPEAL_SET_ASIDE_FAILED,
    onError: (error) => {
      if (error.status === 409) onStale();
    },
  });
  const handleSubmit = form.handle(
    () => {
      const parsed = setAsideAppealInputSchema.safeParse({ reason });
      if (!parsed.success) return { success: false, fieldErrors: { reason: parsed.error.issues[0]?.message ?? APPEAL_SET_ASIDE_FAILED } };
      return { success: true, data: parsed.data } as const;
    },
    async (input) => {
      const setAside = await setAsideAppeal(appeal.id, input.reason);
      setOpen(false);
      onSetAside(setAside);
    },
  );
  return (
    <Card title="Not the motorist’s appeal?" titleId="appeal-set-aside-title">
      <p>
        Anyone who read the windscreen notice can file the charge’s one appeal. If this one is not the motorist’s, set it aside: the charge
        is free for the motorist’s own appeal.
      </p>
      <div className="form-actions">
        <Button variant="secondary" onPress={() => setOpen(true)}>
          Set aside
        </Button>
      </div>
      <ModalDialog title={`Set aside appeal ${appeal.reference}`} isOpen={isOpen} onClose={() => setOpen(false)} isBusy={form.isBusy}>
        <Form className="form-stack" onSubmit={handleSubmit} validationBehavior="aria">
          {form.formError ? <Alert>{form.formError}</Alert> : null}
          <p>
            The appeal leaves the queue and no longer holds the charge. It is kept as filed, with your reason, and cannot be decided. This
            cannot be undone.
          </p>
          <TextField
            label="Why is it set aside?"
            name="reason"
            value={reason}
            onChange={setReason}
            errorMessage={form.errors.reason}
            isMultiline
            isRequired
            description="Kept in the audit trail."
          />
          <div className="modal__actions">
            <Button variant="secondary" onPress={() => setOpen(false)} isDisabled={form.isBusy}>
              Cancel
            </Button>
            <Button type="submit" isDisabled={form.isBusy}>
              {form.isBusy ? 'Setting aside...' : 'Set aside the appeal'}
            </Button>
          </div>
        </Form>
      </ModalDialog>
    </Card>
  );
}
