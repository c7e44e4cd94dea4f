import { useState } from 'react';
import {
  APPEAL_MESSAGES,
  COLLECTION_STAGE_PUBLIC_TEXTS,
  describeNamedDriverNotice,
  discountAndAppealStatements,
  formatCalendarDate,
  formatPence,
  formatUkDateTime,
  formatUkPeriod,
  ukDate,
  type PublicCharge,
} from '@parkpatrol/shared';
import { Alert } from '../../lib/alert.tsx';
import { wholeReferences } from '../../lib/whole-references.tsx';
import { AppealForm } from './appeal-form.tsx';
import { AppealStatus } from './appeal-status.tsx';
import { appealOpenPaymentTexts } from './appeal-texts.ts';
import { CardPayment } from './card-payment.tsx';
import { appealReceivedText } from './charge-texts.ts';
import { Button } from '../../lib/button.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';

const STATE_TEXT = {
  OUTSTANDING: null,
  PAID: 'This charge has been paid. Nothing more is due.',
  CANCELLED: 'This charge has been cancelled. Nothing is due.',
} as const;

export default function ChargeView({
  charge,
  accessToken,
  onReload,
  onClose,
  cardReturn = null,
}: {
  charge: PublicCharge;
  accessToken: string;
  /** Back from the card processor's page (?card=returned or cancelled). */
  cardReturn?: 'returned' | 'cancelled' | null;
  /** Reads the charge again (after an appeal, or when one was already made). */
  onReload: () => Promise<void>;
  onClose: () => void;
}) {
  const land = [charge.carPark.name, charge.carPark.address, charge.carPark.postcode].filter(Boolean).join(', ');
  const stateText = STATE_TEXT[charge.state];
  const [acknowledged, setAcknowledged] = useState<string | null>(null);
  const [isAppealing, setAppealing] = useState(false);
  // After the appeal period an appeal is still taken, marked late (decision 0023).
  const mayAppeal = charge.state === 'OUTSTANDING' && charge.appeal === null;
  const isLate = charge.appealUntil !== null && ukDate(new Date()) > charge.appealUntil;
  return (
    <>
      <header className="charge-title">
        <PageHeading>{`Parking charge ${charge.reference}`}</PageHeading>
        {/* A ticket printed before its notice was sent shows this one: the motorist sees it is the same charge. */}
        {charge.draftReference ? (
          <p className="charge-title__ticket">{wholeReferences(`Ticket reference ${charge.draftReference}`)}</p>
        ) : null}
      </header>
      {stateText ? <Alert tone={charge.state === 'PAID' ? 'success' : 'info'}>{stateText}</Alert> : null}
      {acknowledged ? <Alert tone="success">{acknowledged}</Alert> : null}
      {charge.onHold ? <Alert tone="info">This charge is on hold while we consider your appeal.</Alert> : null}
      {charge.namedDriverNotice && charge.state === 'OUTSTANDING' ? (
        <Alert tone="info">{describeNamedDriverNotice(charge.namedDriverNotice, formatCalendarDate)}</Alert>
      ) : null}
      {charge.appeal ? <AppealStatus charge={charge} accessToken={accessToken} onReload={onReload} /> : null}
      {charge.state === 'OUTSTANDING' ? (
        <section className="charge-due" aria-labelledby="charge-due-title">
          <h2 id="charge-due-title">Amount due today</h2>
          <p className="charge-due__amount">{formatPence(charge.amountDuePence)}</p>
          {charge.paidPence > 0 ? <p>{formatPence(charge.paidPence)} has been paid so far.</p> : null}
          {charge.reduced ? (
            <p>
              {charge.reduced.until
                ? `The reduced amount of ${formatPence(charge.reduced.amountPence)} applies until ${formatCalendarDate(charge.reduced.until)}.`
                : `The reduced amount of ${formatPence(charge.reduced.amountPence)} applies for now.`}{' '}
              {charge.chargePence !== null ? `After that the full charge of ${formatPence(charge.chargePence)} is due.` : ''}
            </p>
          ) : null}
          {charge.collectionStage ? <p className="charge-due__stage">{COLLECTION_STAGE_PUBLIC_TEXTS[charge.collectionStage]}</p> : null}
        </section>
      ) : null}
      <CardPayment charge={charge} accessToken={accessToken} cardReturn={cardReturn} onReload={onReload} />
      <section aria-labelledby="charge-facts-title">
        <h2 id="charge-facts-title">The parking</h2>
        <dl className="details">
          <div>
            <dt>Vehicle</dt>
            <dd>{charge.vehicleRegistration}</dd>
          </div>
          <div>
            <dt>Land</dt>
            <dd>{land}</dd>
          </div>
          <div>
            <dt>Period of parking</dt>
            <dd>{formatUkPeriod(charge.parkedFrom, charge.parkedUntil)}</dd>
          </div>
          <div>
            <dt>Why</dt>
            <dd>{charge.contravention}</dd>
          </div>
          {charge.signageTerms ? (
            <div className="details__wide">
              <dt>The terms on the signs</dt>
              <dd>{charge.signageTerms}</dd>
            </div>
          ) : null}
        </dl>
      </section>
      {charge.photos.length > 0 ? (
        <section aria-labelledby="charge-photos-title">
          <h2 id="charge-photos-title">Photos</h2>
          <ul className="charge-photos">
            {charge.photos.map((photo, index) => (
              <li key={photo.url}>
                <a href={photo.url} target="_blank" rel="noreferrer">
                  <img
                    src={photo.thumbnailUrl}
                    alt={`Photo ${index + 1}${photo.takenAt ? `, taken at ${formatUkDateTime(photo.takenAt)}` : ''}`}
                    loading="lazy"
                  />
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {charge.creditor && charge.state === 'OUTSTANDING' ? (
        <section aria-labelledby="charge-pay-title">
          <h2 id="charge-pay-title">How to pay</h2>
          {/* An appeal holds the charge: say first that nothing need be paid yet, and what each decision asks. */}
          {charge.onHold ? appealOpenPaymentTexts(charge).map((text) => <p key={text}>{text}</p>) : null}
          <p>{wholeReferences(`${charge.onHold ? 'When you pay, pay' : 'Pay'} ${charge.creditor.name}, quoting ${charge.reference}.`)}</p>
          <p className="charge-text">{charge.creditor.howToPay}</p>
        </section>
      ) : null}
      {mayAppeal && isAppealing ? (
        <AppealForm
          accessToken={accessToken}
          appealUntil={charge.appealUntil}
          isLate={isLate}
          onSent={(filed) => {
            setAppealing(false);
            setAcknowledged(
              'reference' in filed
                ? appealReceivedText(filed.reference)
                : `Check your email. We have sent a link to ${filed.email}: your appeal is sent to us only when you open it and press Send my appeal, by ${formatUkDateTime(filed.expiresAt)}. Until then the charge is not on hold.`,
            );
            void onReload();
          }}
          onAlreadyAppealed={() => {
            setAppealing(false);
            void onReload();
          }}
        />
      ) : null}
      {charge.creditor && charge.state === 'OUTSTANDING' && charge.appeal === null && !isAppealing ? (
        <section aria-labelledby="charge-appeal-title">
          <h2 id="charge-appeal-title">How to appeal</h2>
          <p>
            If you believe this charge should not have been issued, appeal to {charge.creditor.name}{' '}
            {charge.appealUntil ? `by ${formatCalendarDate(charge.appealUntil)}` : 'within 28 days of the notice'}, online at{' '}
            {charge.creditor.website}, by email to {charge.creditor.email} or by post to the address below, quoting {charge.reference}.
            While your appeal is considered, the charge is put on hold.
          </p>
          {isLate ? <p>{APPEAL_MESSAGES.lateAppeal}</p> : null}
          {mayAppeal ? <Button onPress={() => setAppealing(true)}>Appeal online</Button> : null}
          {charge.appealsService ? (
            <p>
              If your appeal is rejected, you may appeal to {charge.appealsService.name}, the independent appeals service:{' '}
              <span className="charge-text">{charge.appealsService.contact}</span>
            </p>
          ) : null}
          {charge.appealsService
            ? discountAndAppealStatements(charge.appealsService.name).map((statement) => <p key={statement}>{statement}</p>)
            : null}
        </section>
      ) : null}
      {charge.creditor ? (
        <section aria-labelledby="charge-creditor-title">
          <h2 id="charge-creditor-title">Contact</h2>
          <address className="charge-text">
            {charge.creditor.name}
            {'\n'}
            {charge.creditor.address}
            {'\n'}
            Phone {charge.creditor.phone} · {charge.creditor.email}
          </address>
        </section>
      ) : null}
      <p className="muted">This charge was incurred on private land. It is not a penalty charge notice from a council or the police.</p>
      <Button variant="secondary" onPress={onClose}>
        Look up another charge
      </Button>
    </>
  );
}
