/** One row of a notice's details list (`dl.details`): a label and its value, across the card when wide. */
export function Detail({ label, value, isWide }: { label: string; value: string; isWide?: boolean }) {
  return (
    <div className={isWide ? 'details__wide' : undefined}>
      <dt>{label}</dt>
      <dd className={isWide ? 'details__text' : undefined}>{value}</dd>
    </div>
  );
}
