import { useId, useState } from 'react';
import {
  ERROR_MESSAGES,
  formatCalendarDate,
  moneyCsvFileName,
  MONEY_TEXTS,
  OUTSTANDING_AGE_BAND_LABELS,
  paymentsCsvFileName,
  penceShown,
  ukDate,
  type MoneyAnalytics,
} from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Button } from '../../../lib/button.tsx';
import { Card } from '../../../lib/card.tsx';
import { DownloadButton } from '../../../lib/download-button.tsx';
import { SelectField } from '../../../lib/select-field.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { DateField } from '../../../lib/date-field.tsx';
import { useAsync } from '../../../lib/use-async.ts';
import { getAllCarParks } from '../api/car-parks.ts';
import { downloadMoneyCsv, exportPaymentsCsv, getMoneyAnalytics } from '../api/money.ts';

const ALL = 'all';

/** '3 Mar': a week's Monday on the chart's axis. */
function shortDay(day: string): string {
  return formatCalendarDate(day).replace(/\s\d{4}$/, '');
}

/**
 * The Admin Dashboard's money: received (and refunded) by UK week and outstanding by age, for
 * every car park or the one chosen. Each chart is plain SVG with the same figures as a table
 * (always there for screen readers, shown on request), and the figures download as a CSV; the
 * payments export for reconciliation sits beside them.
 */
export function MoneyAtAGlance() {
  const [carParkId, setCarParkId] = useState<string>(ALL);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const carParks = useAsync(getAllCarParks, [], ERROR_MESSAGES.fetchCarParks);
  const query = { carParkId: carParkId === ALL ? undefined : carParkId };
  const money = useAsync(() => getMoneyAnalytics(query), [carParkId], MONEY_TEXTS.fetchFailed);
  const carParkName = carParks.data?.find((carPark) => carPark.id === query.carParkId)?.name;
  const options = [
    { id: ALL, label: MONEY_TEXTS.allCarParks },
    ...(carParks.data ?? []).map((carPark) => ({ id: carPark.id, label: carPark.name })),
  ];
  const datesWrong = from !== '' && to !== '' && from > to ? 'The first day is after the last' : null;

  return (
    <Card title={MONEY_TEXTS.heading} titleId="admin-money-title">
      <div className="money__controls">
        <SelectField
          label="Car park"
          name="moneyCarPark"
          options={options}
          value={carParkId}
          onChange={(value) => setCarParkId(value ?? ALL)}
        />
        <DownloadButton
          load={() => downloadMoneyCsv(query)}
          fileName={() => moneyCsvFileName(ukDate(new Date()), carParkName)}
          label="Download CSV"
          busyLabel="Downloading..."
          doneText="The money figures were downloaded."
          failedMessage={MONEY_TEXTS.csvFailed}
          aria-label="Download the money figures as CSV"
        />
      </div>
      {money.error ? <Alert>{money.error.message}</Alert> : null}
      {!money.data && money.isLoading ? <Spinner /> : null}
      {money.data ? (
        <div className="charts money__charts" aria-busy={money.isLoading}>
          <ReceivedByWeek weeks={money.data.receivedByWeek} />
          <OutstandingByAge bands={money.data.outstandingByAge} />
        </div>
      ) : null}
      <div className="money__export">
        <h3 className="money__subheading">Payments export</h3>
        <p className="muted">
          Every payment, with its refunds, for reconciling with the bank and the card processor{carParkName ? ` (${carParkName})` : ''}.
        </p>
        <div className="money__controls">
          <DateField label="Paid from" name="paymentsFrom" value={from} onChange={setFrom} />
          <DateField label="Paid to" name="paymentsTo" value={to} onChange={setTo} errorMessage={datesWrong} />
          <DownloadButton
            load={() => exportPaymentsCsv({ ...query, from: from || undefined, to: to || undefined })}
            fileName={() => paymentsCsvFileName(ukDate(new Date()), { from: from || undefined, to: to || undefined, carParkName })}
            label="Export payments"
            busyLabel="Exporting..."
            doneText="The payments were exported."
            failedMessage={MONEY_TEXTS.paymentsExportFailed}
          />
        </div>
      </div>
    </Card>
  );
}

/** The 'Show as table' toggle: the table is always there for screen readers, and shown to everyone on request. */
function useTableToggle() {
  const [shown, setShown] = useState(false);
  const tableId = useId();
  const toggle = (
    <Button variant="text" onPress={() => setShown(!shown)} aria-expanded={shown} aria-controls={tableId}>
      {shown ? 'Hide the table' : 'Show as table'}
    </Button>
  );
  return { shown, tableId, toggle };
}

function ReceivedByWeek({ weeks }: { weeks: MoneyAnalytics['receivedByWeek'] }) {
  const titleId = useId();
  const { shown, tableId, toggle } = useTableToggle();
  const width = 600;
  const height = 220;
  const top = 16;
  const bottom = 28;
  const left = 72;
  const plotHeight = height - top - bottom;
  // At least £1 at the top, so an empty chart reads £0 to £1.00 rather than to a penny.
  const max = Math.max(100, ...weeks.flatMap((week) => [week.receivedPence, week.refundedPence]));
  const slot = (width - left) / Math.max(1, weeks.length);
  const received = weeks.reduce((sum, week) => sum + week.receivedPence, 0);
  const refunded = weeks.reduce((sum, week) => sum + week.refundedPence, 0);
  // Counted back from this week: it is always labelled, and the labels never crowd.
  const labelEvery = Math.max(1, Math.ceil(weeks.length / 6));
  return (
    <section className="chart money__chart money__chart--weeks" aria-labelledby={titleId}>
      <h3 id={titleId} className="money__subheading">
        {MONEY_TEXTS.receivedHeading}
      </h3>
      <figure className="chart__figure" style={{ margin: 0 }}>
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} aria-describedby={`${titleId}-summary`}>
          <line className="chart__axis" x1={left} x2={width} y1={top + plotHeight} y2={top + plotHeight} />
          <text className="chart__label" x={left - 6} y={top + 4} textAnchor="end">
            {penceShown(max)}
          </text>
          <text className="chart__label" x={left - 6} y={top + plotHeight} textAnchor="end">
            £0
          </text>
          {weeks.map((week, index) => {
            const x = left + index * slot + slot * 0.1;
            const barWidth = slot * 0.38;
            const receivedHeight = (week.receivedPence / max) * plotHeight;
            const refundedHeight = (week.refundedPence / max) * plotHeight;
            return (
              <g key={week.weekStart} data-week={week.weekStart}>
                <rect className="chart__bar" x={x} y={top + plotHeight - receivedHeight} width={barWidth} height={receivedHeight} rx={2}>
                  <title>{`Week of ${shortDay(week.weekStart)}: ${penceShown(week.receivedPence)} received`}</title>
                </rect>
                <rect
                  className="chart__bar money__bar--refunded"
                  x={x + barWidth}
                  y={top + plotHeight - refundedHeight}
                  width={barWidth}
                  height={refundedHeight}
                  rx={2}
                >
                  <title>{`Week of ${shortDay(week.weekStart)}: ${penceShown(week.refundedPence)} refunded`}</title>
                </rect>
                {(weeks.length - 1 - index) % labelEvery === 0 ? (
                  <text className="chart__label" x={x + barWidth} y={height - 8} textAnchor="middle">
                    {shortDay(week.weekStart)}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
        <figcaption id={`${titleId}-summary`} className="muted">
          {penceShown(received)} received and {penceShown(refunded)} refunded over {weeks.length} weeks, each from its Monday.{' '}
          <span className="money__key money__key--received" aria-hidden="true" /> Received{' '}
          <span className="money__key money__key--refunded" aria-hidden="true" /> Refunded
        </figcaption>
      </figure>
      {toggle}
      <table id={tableId} className={shown ? 'table money__table' : 'visually-hidden'}>
        <caption className="visually-hidden">{MONEY_TEXTS.receivedHeading}</caption>
        <thead>
          <tr>
            <th scope="col">Week starting</th>
            <th scope="col">Received</th>
            <th scope="col">Refunded</th>
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.weekStart}>
              <th scope="row">{formatCalendarDate(week.weekStart)}</th>
              <td>{penceShown(week.receivedPence)}</td>
              <td>{penceShown(week.refundedPence)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function OutstandingByAge({ bands }: { bands: MoneyAnalytics['outstandingByAge'] }) {
  const titleId = useId();
  const { shown, tableId, toggle } = useTableToggle();
  const rowHeight = 30;
  const labelWidth = 130;
  const width = 400;
  const height = bands.length * rowHeight;
  const max = Math.max(1, ...bands.map((band) => band.outstandingPence));
  const total = bands.reduce((sum, band) => sum + band.outstandingPence, 0);
  const count = bands.reduce((sum, band) => sum + band.count, 0);
  return (
    <section className="chart money__chart money__chart--ages" aria-labelledby={titleId}>
      <h3 id={titleId} className="money__subheading">
        {MONEY_TEXTS.outstandingHeading}
      </h3>
      <figure style={{ margin: 0 }}>
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} aria-describedby={`${titleId}-summary`}>
          {bands.map((band, index) => {
            const barWidth = ((width - labelWidth - 110) * band.outstandingPence) / max;
            const y = index * rowHeight;
            return (
              <g key={band.band} data-band={band.band}>
                <text className="chart__label" x={labelWidth - 8} y={y + rowHeight / 2 + 4} textAnchor="end">
                  {OUTSTANDING_AGE_BAND_LABELS[band.band]}
                </text>
                <rect
                  className={`chart__bar${band.band === '90+' ? ' chart__bar--error' : band.band === '57-90' ? ' chart__bar--warning' : ''}`}
                  x={labelWidth}
                  y={y + 6}
                  width={barWidth}
                  height={rowHeight - 12}
                  rx={2}
                >
                  <title>{`${OUTSTANDING_AGE_BAND_LABELS[band.band]}: ${band.count} charges, ${penceShown(band.outstandingPence)}`}</title>
                </rect>
                <text className="chart__value" x={labelWidth + barWidth + 6} y={y + rowHeight / 2 + 4}>
                  {`${penceShown(band.outstandingPence)} (${band.count})`}
                </text>
              </g>
            );
          })}
        </svg>
        <figcaption id={`${titleId}-summary`} className="muted">
          {penceShown(total)} owed on {count} {count === 1 ? 'charge' : 'charges'}, by days since each was issued; a charge on hold for an
          appeal is left out.
        </figcaption>
      </figure>
      {toggle}
      <table id={tableId} className={shown ? 'table money__table' : 'visually-hidden'}>
        <caption className="visually-hidden">{MONEY_TEXTS.outstandingHeading}</caption>
        <thead>
          <tr>
            <th scope="col">Days since issue</th>
            <th scope="col">Charges</th>
            <th scope="col">Outstanding</th>
          </tr>
        </thead>
        <tbody>
          {bands.map((band) => (
            <tr key={band.band}>
              <th scope="row">{OUTSTANDING_AGE_BAND_LABELS[band.band]}</th>
              <td>{band.count}</td>
              <td>{penceShown(band.outstandingPence)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
