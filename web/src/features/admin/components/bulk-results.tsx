import { CircleCheck, CircleX } from 'lucide-react';
import { ADMIN_TEXTS, type BulkResult } from '@parkpatrol/shared';
import { Card } from '../../../lib/card.tsx';
import { AdminTable, type AdminColumn } from './admin-table.tsx';

const COLUMNS: ReadonlyArray<AdminColumn<BulkResult>> = [
  { id: 'label', label: 'Item', isRowHeader: true, isFigure: true, render: (result) => result.label },
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
  { id: 'message', label: ADMIN_TEXTS.message, isWide: true, render: (result) => (result.success ? 'Done' : (result.error ?? ADMIN_TEXTS.failed)) },
];

/** What a bulk action did to each selected row: done, or the reason it was refused. */
export function BulkResults({ title, results, successText }: { title: string; results: readonly BulkResult[]; successText?: string }) {
  const columns = successText ? COLUMNS.map((c) => (c.id === 'message' ? { ...c, render: (r: BulkResult) => (r.success ? successText : (r.error ?? ADMIN_TEXTS.failed)) } : c)) : COLUMNS;
  return (
    <Card title={title} titleId="bulk-results-title">
      <AdminTable label={title} columns={columns} rows={results} isLoading={false} error={null} emptyText="Nothing was changed." rowLabel={(r) => r.label} />
    </Card>
  );
}
