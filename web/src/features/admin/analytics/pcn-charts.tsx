import { PCN_STATUS_GROUPS, PCN_STATUS_LABELS, PCN_STATUSES, type PcnStatus } from '@parkpatrol/shared';
import { formatDate, formatDayMonth } from '../../../lib/format-date.ts';

/**
 * Plain SVG bar charts (no chart library on any path). Each chart has a text summary for
 * screen readers and a table-like title per bar for pointer users.
 */

/** A calendar day ('2026-11-28') as '28 Nov': noon UTC is that day on the UK clock, summer or winter. */
function labelOfDay(date: string): string {
  return formatDayMonth(`${date}T12:00:00Z`) || date;
}

export function PcnsPerDayChart({ days, labelledBy }: { days: Array<{ date: string; count: number }>; labelledBy: string }) {
  const width = 600;
  const height = 200;
  const top = 16;
  const bottom = 28;
  const left = 28;
  const plotHeight = height - top - bottom;
  const max = Math.max(1, ...days.map((d) => d.count));
  const slot = (width - left) / Math.max(1, days.length);
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const busiest = days.reduce<{ date: string; count: number } | null>((best, d) => (d.count > (best?.count ?? 0) ? d : best), null);
  const summary = busiest
    ? `${total} PCNs over ${days.length} days; busiest day ${formatDate(`${busiest.date}T12:00:00Z`)} with ${busiest.count}.`
    : `No PCNs in the last ${days.length} days.`;
  return (
    <figure className="chart__figure" style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={labelledBy} aria-describedby={`${labelledBy}-summary`}>
        <line className="chart__axis" x1={left} x2={width} y1={top + plotHeight} y2={top + plotHeight} />
        <text className="chart__label" x={left - 6} y={top + 4} textAnchor="end">
          {max}
        </text>
        <text className="chart__label" x={left - 6} y={top + plotHeight} textAnchor="end">
          0
        </text>
        {days.map((day, index) => {
          const barHeight = (day.count / max) * plotHeight;
          const x = left + index * slot + slot * 0.15;
          return (
            <g key={day.date}>
              <rect className="chart__bar" x={x} y={top + plotHeight - barHeight} width={slot * 0.7} height={barHeight} rx={2}>
                <title>{`${labelOfDay(day.date)}: ${day.count}`}</title>
              </rect>
              {index % 5 === 0 || index === days.length - 1 ? (
                <text className="chart__label" x={x + slot * 0.35} y={height - 8} textAnchor="middle">
                  {labelOfDay(day.date)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption id={`${labelledBy}-summary`} className="muted">
        {summary}
      </figcaption>
    </figure>
  );
}

export function PcnsByStatusChart({ counts, labelledBy }: { counts: Record<PcnStatus, number>; labelledBy: string }) {
  const rowHeight = 28;
  const labelWidth = 110;
  const width = 360;
  const height = PCN_STATUSES.length * rowHeight;
  const max = Math.max(1, ...PCN_STATUSES.map((s) => counts[s] ?? 0));
  const summary = PCN_STATUSES.map((s) => `${PCN_STATUS_LABELS[s]} ${counts[s] ?? 0}`).join(', ');
  return (
    <figure style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={labelledBy} aria-describedby={`${labelledBy}-summary`}>
        {PCN_STATUSES.map((status, index) => {
          const value = counts[status] ?? 0;
          const barWidth = ((width - labelWidth - 40) * value) / max;
          const y = index * rowHeight;
          return (
            <g key={status}>
              <text className="chart__label" x={labelWidth - 8} y={y + rowHeight / 2 + 4} textAnchor="end">
                {PCN_STATUS_LABELS[status]}
              </text>
              <rect
                className={`chart__bar chart__bar--${PCN_STATUS_GROUPS[status]}`}
                x={labelWidth}
                y={y + 5}
                width={barWidth}
                height={rowHeight - 10}
                rx={2}
              />
              <text className="chart__value" x={labelWidth + barWidth + 6} y={y + rowHeight / 2 + 4}>
                {value}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption id={`${labelledBy}-summary`} className="visually-hidden">
        {summary}
      </figcaption>
    </figure>
  );
}
