import { useId, useState } from 'react';
import {
  APPEAL_STATUS_REPORT_LABELS,
  cancellationReasonLabel,
  monthlyReportFileName,
  monthlyReportLines,
  monthTitle,
  PERMIT_KIND_LABELS,
  penceShown,
  shiftMonth,
  ukDate,
  type MonthlyReport,
} from '@parkpatrol/shared';
import { Alert } from '../../lib/alert.tsx';
import { Button } from '../../lib/button.tsx';
import { DownloadButton } from '../../lib/download-button.tsx';
import { Spinner } from '../../lib/spinner.tsx';
import { TextField } from '../../lib/text-field.tsx';
import { useAsync } from '../../lib/use-async.ts';
import { downloadMonthlyReport, getMonthlyReport, LANDOWNER_FAILED } from './landowner-api.ts';

type Bar = { label: string; count: number };

/**
 * The monthly report of one car park (decision 0042), for its landowners and the admins: the
 * month's notices and where they stand, as small bar charts with the same figures as a table
 * (always there for screen readers, shown on request), and as a CSV and a PDF of those figures.
 */
export function MonthlyReportView({ carParkId }: { carParkId: string }) {
  const [month, setMonth] = useState(() => ukDate(new Date()).slice(0, 7));
  const report = useAsync(() => getMonthlyReport(carParkId, month), [carParkId, month], LANDOWNER_FAILED.report);
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  const data = report.data;
  return (
    <div className="landowner-report form-stack">
      <div className="landowner-report__controls">
        <Button variant="secondary" onPress={() => setMonth(shiftMonth(month, -1))} aria-label="Previous month">
          ‹ Previous
        </Button>
        <TextField label="Month" type="month" name="reportMonth" value={month} onChange={(value) => value && setMonth(value)} />
        <Button variant="secondary" onPress={() => setMonth(shiftMonth(month, 1))} aria-label="Next month">
          Next ›
        </Button>
      </div>
      {report.error ? <Alert>{report.error.message}</Alert> : null}
      {!data && report.isLoading ? <Spinner /> : null}
      {data ? (
        <div aria-busy={report.isLoading}>
          <h3 className="landowner-report__title">{monthTitle(data.month)}</h3>
          <dl className="landowner-report__totals">
            <Total label="Notices issued" value={String(data.issued)} />
            <Total label="Cancelled" value={String(data.cancelled.total)} />
            <Total label="Appeals" value={String(data.appeals.total)} />
            <Total label="Paid" value={`${data.paid.count} (${penceShown(data.paid.receivedPence)})`} />
            <Total label="Outstanding" value={`${data.outstanding.count} (${penceShown(data.outstanding.duePence)})`} />
            <Total label="Permits in force" value={String(data.permitsInForce.total)} />
          </dl>
          <div className="charts landowner-report__charts">
            <BarChart
              title="Cancelled, and why"
              empty="No notice of this month was cancelled."
              bars={data.cancelled.byReason.map(({ reason, count }) => ({ label: cancellationReasonLabel(reason), count }))}
            />
            <BarChart
              title="Appeals and outcomes"
              empty="No appeal against this month's notices."
              bars={data.appeals.byStatus.map(({ status, count }) => ({ label: APPEAL_STATUS_REPORT_LABELS[status], count }))}
            />
            <BarChart
              title="Permits in force"
              empty="No permit in force."
              bars={data.permitsInForce.byKind.map(({ kind, count }) => ({ label: PERMIT_KIND_LABELS[kind], count }))}
            />
          </div>
          <Button variant="text" onPress={() => setTableShown(!tableShown)} aria-expanded={tableShown} aria-controls={tableId}>
            {tableShown ? 'Hide the table' : 'Show as table'}
          </Button>
          <ReportTable report={data} id={tableId} isShown={tableShown} />
          <div className="button-row">
            <DownloadButton
              load={() => downloadMonthlyReport(carParkId, data.month, 'csv')}
              fileName={() => monthlyReportFileName(data, 'csv')}
              label="Download CSV"
              busyLabel="Downloading..."
              doneText="The report was downloaded as CSV."
              failedMessage={LANDOWNER_FAILED.csv}
            />
            <DownloadButton
              load={() => downloadMonthlyReport(carParkId, data.month, 'pdf')}
              fileName={() => monthlyReportFileName(data, 'pdf')}
              label="Download PDF"
              busyLabel="Downloading..."
              doneText="The report was downloaded as PDF."
              failedMessage={LANDOWNER_FAILED.pdf}
            />
          </div>
        </div>
      ) : null}
    </div>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div className="landowner-report__total">
      <dt>{label}</dt>
      <dd data-figure={label}>{value}</dd>
    </div>
  );
}

/** Horizontal bars in plain SVG, one per line of a breakdown; the table below holds the same figures. */
function BarChart({ title, bars, empty }: { title: string; bars: readonly Bar[]; empty: string }) {
  const titleId = useId();
  const rowHeight = 28;
  const labelWidth = 150;
  const width = 360;
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  return (
    <section className="chart landowner-report__chart" aria-labelledby={titleId}>
      <h4 id={titleId} className="landowner-report__subheading">
        {title}
      </h4>
      {bars.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <svg viewBox={`0 0 ${width} ${bars.length * rowHeight}`} role="img" aria-labelledby={titleId}>
          {bars.map((bar, index) => {
            const barWidth = ((width - labelWidth - 40) * bar.count) / max;
            const y = index * rowHeight;
            return (
              <g key={bar.label}>
                <text className="chart__label" x={labelWidth - 8} y={y + rowHeight / 2 + 4} textAnchor="end">
                  {bar.label}
                </text>
                <rect className="chart__bar" x={labelWidth} y={y + 6} width={barWidth} height={rowHeight - 12} rx={2}>
                  <title>{`${bar.label}: ${bar.count}`}</title>
                </rect>
                <text className="chart__value" x={labelWidth + barWidth + 6} y={y + rowHeight / 2 + 4}>
                  {bar.count}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </section>
  );
}

/** Every line of the report, exactly as the CSV and the PDF print them. */
function ReportTable({ report, id, isShown }: { report: MonthlyReport; id: string; isShown: boolean }) {
  return (
    <table id={id} className={isShown ? 'table landowner-report__table' : 'visually-hidden'}>
      <caption className="visually-hidden">{`Monthly report, ${monthTitle(report.month)}`}</caption>
      <thead>
        <tr>
          <th scope="col">Figure</th>
          <th scope="col">Breakdown</th>
          <th scope="col">Count</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {monthlyReportLines(report).map((line) => (
          <tr key={`${line.section}|${line.item}`}>
            <th scope="row">{line.section}</th>
            <td>{line.item}</td>
            <td>{line.count}</td>
            <td>{line.pence === null ? '' : penceShown(line.pence)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
