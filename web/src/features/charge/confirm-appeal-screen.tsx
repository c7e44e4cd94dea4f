import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { APPEAL_MESSAGES } from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { Alert } from '../../lib/alert.tsx';
import { toApiError } from '../../lib/api-client.ts';
import { Button } from '../../lib/button.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';
import { APPEAL_CONFIRM_FAILED, confirmAppeal } from './charge-api.ts';
import { appealReceivedText } from './charge-texts.ts';
// Its styles (charge.css) come with ChargeScreen, in the first chunk: index.html holds them, and a
// lazy chunk naming that stylesheet would ask for a file the build has inlined (build/first-paint.ts).

type Outcome = { tone: 'success' | 'error'; text: string };

/**
 * /charge/confirm-appeal?token=…, the link emailed for an appeal made on /charge (decision 0032).
 * Opening it changes nothing: mail scanners open (and some run) every link in an email. The
 * motorist presses Send, and only that POST files the appeal; its reference is then shown as
 * /charge shows it.
 */
export function ConfirmAppealScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [isSending, setSending] = useState(false);

  const send = async () => {
    if (isSending) return;
    setSending(true);
    setOutcome(null);
    try {
      const submitted = await confirmAppeal(token);
      setOutcome({ tone: 'success', text: appealReceivedText(submitted.reference) });
    } catch (error) {
      const failure = toApiError(error, APPEAL_CONFIRM_FAILED);
      // Another appeal was confirmed first: the charge page shows it.
      setOutcome({
        tone: 'error',
        text: failure.status === 409 ? APPEAL_MESSAGES.alreadyAppealed.replace(' It is shown below.', '') : failure.message,
      });
    } finally {
      setSending(false);
    }
  };

  const isDone = outcome?.tone === 'success';
  return (
    <main className="charge-page" id="main">
      <div className="charge-page__inner">
        <PageHeading>Send your appeal</PageHeading>
        {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
        {token === '' ? (
          <Alert tone="error">{APPEAL_MESSAGES.confirmLinkDead}</Alert>
        ) : isDone ? null : (
          <>
            <p>Your appeal is sent to us only when you press Send my appeal. Until then we have not received it.</p>
            <Button onPress={() => void send()} isDisabled={isSending}>
              {isSending ? 'Sending your appeal…' : 'Send my appeal'}
            </Button>
          </>
        )}
        <p>
          <Link to={paths.charge}>See your charge</Link>
        </p>
      </div>
    </main>
  );
}
