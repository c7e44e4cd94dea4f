import { APPEAL_CHANNEL_LABELS, APPEAL_REASON_LABELS, type Appeal } from '@parkpatrol/shared';
import { Card } from '../../../lib/card.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { AppealAttachments } from './appeal-attachments.tsx';

/**
 * The motorist's side: who appealed, whether they drove (and whom they named), their reason and
 * their own words. Everything here is theirs, so React escapes it and nothing is rendered as HTML.
 */
export function AppellantCard({ appeal }: { appeal: Appeal }) {
  return (
    <Card title="The motorist's appeal" titleId="appeal-appellant-title">
      <div className="form-stack">
        <dl className="details">
          <div>
            <dt>Name</dt>
            <dd>{appeal.appellant.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{appeal.appellant.email ?? 'None given: letters go by post'}</dd>
          </div>
          <div>
            <dt>Came by</dt>
            <dd>{APPEAL_CHANNEL_LABELS[appeal.channel]}</dd>
          </div>
          <div className="details__wide">
            <dt>Postal address</dt>
            <dd className="details__text">{appeal.appellant.address}</dd>
          </div>
          <div>
            <dt>Driving at the time</dt>
            <dd>{appeal.wasDriver ? 'Yes, the appellant was the driver' : 'No, the appellant was not the driver'}</dd>
          </div>
          <div>
            <dt>Received</dt>
            <dd>{formatDateTime(appeal.receivedAt)}</dd>
          </div>
          {appeal.driver ? (
            <div className="details__wide">
              <dt>Driver they named</dt>
              <dd className="details__text">{[appeal.driver.name, appeal.driver.address].filter(Boolean).join('\n')}</dd>
            </div>
          ) : null}
          <div className="details__wide">
            <dt>Reason</dt>
            <dd>{APPEAL_REASON_LABELS[appeal.reason]}</dd>
          </div>
        </dl>
        <section className="appeal-words" aria-labelledby="appeal-words-title">
          <h3 id="appeal-words-title" className="appeal-words__title">
            In their words
          </h3>
          <p className="appeal-words__text">{appeal.text}</p>
        </section>
        <AppealAttachments appealId={appeal.id} attachments={appeal.attachments} />
      </div>
    </Card>
  );
}
