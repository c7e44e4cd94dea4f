import { useId, type ReactNode } from 'react';
import { Cell, Column, Row, Table, TableBody, TableHeader, type Selection, type SortDescriptor } from 'react-aria-components';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { firstOrder, type Pagination, type SortOrder } from '@parkpatrol/shared';
import { Alert } from '../../../lib/alert.tsx';
import { Spinner } from '../../../lib/spinner.tsx';
import { Checkbox } from './checkbox.tsx';
import { PaginationBar } from './pagination-bar.tsx';

export type AdminColumn<T> = {
  id: string;
  label: string;
  /** Sortable on the server under this key (the API's `sort`). */
  sortKey?: string;
  isRowHeader?: boolean;
  /** Numbers, dates, plates: one line, tabular figures. */
  isFigure?: boolean;
  /** Long text that may wrap (names of car parks, notes). */
  isWide?: boolean;
  /** The row's buttons: a full-width line of their own on a phone card. */
  isActions?: boolean;
  render: (row: T) => ReactNode;
};

type Props<T extends { id: string }> = {
  label: string;
  columns: ReadonlyArray<AdminColumn<T>>;
  rows: readonly T[] | undefined;
  isLoading: boolean;
  error: { message: string } | null;
  emptyText: string;
  rowLabel: (row: T) => string;
  /** The server's order of the rows; onSort asks for another. */
  sort?: { sort: string; order: SortOrder };
  onSort?: (key: string, order: SortOrder) => void;
  selection?: {
    keys: Set<string>;
    onChange: (keys: Selection) => void;
    selectAllLabel: string;
    rowLabel: (row: T) => string;
    /** Rows that cannot be selected now (their links still work); selecting all leaves them out. */
    disabledKeys?: Set<string>;
  };
  pagination?: Pagination;
  onPageChange?: (page: number) => void;
  /** What else a row's rendering reads, so react-aria draws rows again when it changes. */
  dependencies?: readonly unknown[];
  /** A click on a row, or Enter on it: opens it (its checkbox still selects). */
  onRowAction?: (row: T) => void;
};

/**
 * The one table of the admin lists: headers sort on the server (aria-sort
 * comes from react-aria), rows can be selected, and on a phone each row is a card labelled by
 * its column names. Loading, error, empty and paging states look the same everywhere.
 */
export function AdminTable<T extends { id: string }>(props: Props<T>) {
  const { label, columns, rows, isLoading, error, emptyText, rowLabel, selection, pagination, onPageChange, sort, onSort } = props;
  if (!rows) return isLoading ? <Spinner /> : error ? <Alert>{error.message}</Alert> : null;
  const sortable = columns.filter((column) => column.sortKey !== undefined);
  return (
    <>
      {error ? <Alert>{error.message}</Alert> : null}
      {sort && onSort && sortable.length > 0 ? <PhoneSortSelect columns={sortable} sort={sort} onSort={onSort} /> : null}
      <div className="admin-table-scroll" aria-busy={isLoading}>
        <Table
          aria-label={label}
          className="table table--cards admin-table"
          sortDescriptor={sort ? { column: sort.sort, direction: sort.order === 'asc' ? 'ascending' : 'descending' } : undefined}
          // A header press: the same column flips its order, another starts at its first (dates newest first).
          onSortChange={
            onSort && sort
              ? ({ column }) =>
                  onSort(String(column), column === sort.sort ? (sort.order === 'asc' ? 'desc' : 'asc') : firstOrder(String(column)))
              : undefined
          }
          selectionMode={selection ? 'multiple' : 'none'}
          selectionBehavior="toggle"
          onRowAction={
            props.onRowAction
              ? (key) => {
                  const row = rows.find((item) => item.id === String(key));
                  if (row) props.onRowAction!(row);
                }
              : undefined
          }
          selectedKeys={selection?.keys}
          onSelectionChange={selection?.onChange}
          disabledKeys={selection?.disabledKeys}
          disabledBehavior="selection"
        >
          <TableHeader>
            {selection ? (
              <Column id="select" className="table__narrow">
                <Checkbox slot="selection" aria-label={selection.selectAllLabel} />
              </Column>
            ) : null}
            {columns.map((column) => (
              <Column
                key={column.id}
                id={column.sortKey ?? column.id}
                isRowHeader={column.isRowHeader}
                allowsSorting={column.sortKey !== undefined}
                className={column.isFigure ? 'table__nowrap' : undefined}
              >
                {({ allowsSorting, sortDirection }) => (
                  <span className="admin-table__heading">
                    {column.label}
                    {allowsSorting ? <SortIcon direction={sortDirection} /> : null}
                  </span>
                )}
              </Column>
            ))}
          </TableHeader>
          <TableBody
            items={rows}
            dependencies={[columns, ...(props.dependencies ?? [])]}
            renderEmptyState={() => <p className="table__empty">{emptyText}</p>}
          >
            {(row) => (
              <Row id={row.id} className="table__row" textValue={rowLabel(row)}>
                {selection ? (
                  <Cell className="table__narrow admin-table__select">
                    <Checkbox slot="selection" aria-label={`Select ${selection.rowLabel(row)}`} />
                  </Cell>
                ) : null}
                {columns.map((column) => (
                  <Cell key={column.id} data-label={column.label} className={cellClass(column)}>
                    {column.render(row)}
                  </Cell>
                ))}
              </Row>
            )}
          </TableBody>
        </Table>
      </div>
      {pagination && onPageChange ? <PaginationBar pagination={pagination} onPageChange={onPageChange} label={label} /> : null}
    </>
  );
}

function cellClass(column: Pick<AdminColumn<never>, 'isFigure' | 'isWide' | 'isActions'>): string | undefined {
  if (column.isFigure) return 'table__nowrap';
  if (column.isWide) return 'table__wrap';
  if (column.isActions) return 'admin-table__actions';
  return undefined;
}

/** The arrow shows the order; aria-sort on the header says it to screen readers. */
function SortIcon({ direction }: { direction: SortDescriptor['direction'] | undefined }) {
  const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
  return <Icon aria-hidden="true" size={16} className={direction ? 'admin-table__sort' : 'admin-table__sort admin-table__sort--idle'} />;
}

/**
 * On a phone the rows are cards and the headers are hidden, so the order is chosen here (the
 * same URL state as the headers'); CSS shows it only on narrow screens.
 */
function PhoneSortSelect({
  columns,
  sort,
  onSort,
}: {
  columns: ReadonlyArray<AdminColumn<never>>;
  sort: { sort: string; order: SortOrder };
  onSort: (key: string, order: SortOrder) => void;
}) {
  const id = useId();
  const value = `${sort.sort}:${sort.order}`;
  const options = columns.flatMap((column) => [
    { value: `${column.sortKey}:asc`, label: `${column.label}, ascending` },
    { value: `${column.sortKey}:desc`, label: `${column.label}, descending` },
  ]);
  return (
    <div className="field admin-table__sort-select">
      <label className="field__label" htmlFor={id}>
        Sort by
      </label>
      <select
        id={id}
        className="field__input select__native"
        value={options.some((option) => option.value === value) ? value : ''}
        onChange={(event) => {
          const [key, order] = event.target.value.split(':') as [string, SortOrder];
          onSort(key, order);
        }}
      >
        {options.some((option) => option.value === value) ? null : <option value="">Choose an order</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
