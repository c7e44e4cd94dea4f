import type { ReactNode } from 'react';
import { CircleCheck, CircleX } from 'lucide-react';
import { ADMIN_TEXTS, type BulkResult } from '@parkpatrol/shared';
import { Card } from '../../../lib/card.tsx';
import { AdminTable, type AdminColumn } from './admin-table.tsx';

type Props = {
  title: string;
  /** The first column's heading: what each row is ('User' in the spec's Onboarding Results, 'PCN'). */
  itemHeading: string;
  results: readonly BulkResult[];
  /** The message of a row that worked; the spec's onboarding results say 'Email sent successfully'. */
  successText?: string;
  /** Beside the title: what can be done with the whole action (its Undo). */
  actions?: ReactNode;
};

/** What a bulk action did to each selected row: done, or the reason it was refused. */
export function BulkResults({ title, itemHeading, results, successText = 'Done', actions }: Props) {
  const columns: ReadonlyArray<AdminColumn<BulkResult>> = [
    { id: 'label', label: itemHeading, isRowHeader: true, isFigure: true, render: (result) => result.label },
    {
      id: 'status',
      label: ADMIN_TEXTS.status,
      render: (result) => (
        <span className={`chip ${result.success ? 'chip--success' : 'chip--error'}`}>
          {result.success ? <CircleCheck aria-hidden="true" size={14} /> : <CircleX aria-hidden="true" size={14} />}
          {result.success ? ADMIN_TEXTS.success : ADMIN_TEXTS.failed}
        </span>
      ),
    },
    {
      id: 'message',
      label: ADMIN_TEXTS.message,
      isWide: true,
      render: (result) => (result.success ? successText : (result.error ?? ADMIN_TEXTS.failed)),
    },
  ];
  return (
    <Card title={title} titleId="bulk-results-title" actions={actions}>
      <AdminTable
        label={title}
        columns={columns}
        rows={results}
        isLoading={false}
        error={null}
        emptyText="Nothing was changed."
        rowLabel={(r) => r.label}
      />
    </Card>
  );
}
