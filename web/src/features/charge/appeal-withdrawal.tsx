import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ukDate, withdrawAppealInputSchema, fieldErrors, type PublicCharge } from '@parkpatrol/shared';
import { Alert } from '../../lib/alert.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { Button } from '../../lib/button.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { appealWithdrawalTexts } from './appeal-texts.ts';
import { APPEAL_WITHDRAW_FAILED, withdrawAppeal } from './charge-api.ts';

/**
 * 'Withdraw appeal' under an appeal awaiting our decision (decision 0044), then a step that says
 * what withdrawing does to the charge and from when, and asks for the email the appeal gave: the
 * windscreen's details open this page to anyone, that email only to the appellant.
 */
export function AppealWithdrawal({
  charge,
  accessToken,
  onWithdrawn,
}: {
  charge: PublicCharge;
  accessToken: string;
  /** The appeal is withdrawn: the page reads the charge again. */
  onWithdrawn: () => Promise<void>;
}) {
  const [isConfirming, setConfirming] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // The step takes the focus when it opens, and gives it back to the button when it is left.
  useEffect(() => {
    if (isConfirming) titleRef.current?.focus();
    else if (wasConfirming.current) openRef.current?.focus();
    wasConfirming.current = isConfirming;
  }, [isConfirming]);

  if (!isConfirming) {
    return (
      <Button variant="secondary" ref={openRef} onPress={() => setConfirming(true)}>
        Withdraw appeal
      </Button>
    );
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isBusy) return;
    setFormError(null);
    const parsed = withdrawAppealInputSchema.safeParse({ email });
    if (!parsed.success) {
      setError(fieldErrors(parsed.error).email ?? null);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await withdrawAppeal(accessToken, parsed.data.email);
      await onWithdrawn();
    } catch (caught) {
      const failure = caught instanceof ApiError ? caught : new ApiError(APPEAL_WITHDRAW_FAILED);
      if (failure.fields.email) setError(failure.fields.email);
      else setFormError(failure.message);
      // Decided or withdrawn meanwhile: the page shows the appeal as it now stands.
      if (failure.status === 409) await onWithdrawn().catch(() => undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="appeal-withdrawal" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="appeal-withdrawal-title">
      <h3 id="appeal-withdrawal-title" ref={titleRef} tabIndex={-1}>
        Withdraw your appeal?
      </h3>
      {appealWithdrawalTexts(charge, ukDate(new Date())).map((text) => (
        <p key={text}>{text}</p>
      ))}
      {formError ? <Alert>{formError}</Alert> : null}
      <TextField
        label="Your email"
        name="email"
        type="email"
        autoComplete="email"
        description="The email address your appeal gave."
        value={email}
        onChange={setEmail}
        errorMessage={error}
        isRequired
      />
      <div className="button-row">
        <Button type="submit" isDisabled={isBusy}>
          {isBusy ? 'Withdrawing…' : 'Withdraw my appeal'}
        </Button>
        <Button variant="secondary" onPress={() => setConfirming(false)} isDisabled={isBusy}>
          Keep my appeal
        </Button>
      </div>
    </form>
  );
}
