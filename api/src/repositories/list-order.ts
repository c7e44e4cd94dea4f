import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { SortOrder } from '@parkpatrol/shared';

/**
 * How a list is ordered in SQL: the sort key's columns and then a unique tie-breaker, all in the
 * one direction. With the tie-breaker every row has exactly one place, so pages (offset or
 * keyset) never repeat or skip a row, and "the rows after this one" is well defined.
 * Every column must be NOT NULL (or coalesced): a row-value comparison with a NULL is unknown
 * and would drop rows from a keyset.
 */
export type ListOrder = { columns: readonly Expression<unknown>[]; direction: SortOrder };

export function orderedBy<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: ListOrder,
): SelectQueryBuilder<DB, TB, O> {
  return order.columns.reduce<SelectQueryBuilder<DB, TB, O>>((ordered, column) => ordered.orderBy(column, order.direction), query);
}

/** The same columns the other way round: walking back from a row finds the one just before it. */
export function reversed(order: ListOrder): ListOrder {
  return { columns: order.columns, direction: order.direction === 'asc' ? 'desc' : 'asc' };
}

/**
 * The rows after (or before) the row whose order columns hold `values`, in the list's order: one
 * row-value comparison, which SQLite and PostgreSQL both read and can answer from an index.
 */
export function beyond(order: ListOrder, values: readonly unknown[], side: 'after' | 'before'): Expression<SqlBool> {
  if (values.length !== order.columns.length) throw new Error('A keyset needs one value per order column');
  const isAfter = side === 'after';
  const operator = isAfter === (order.direction === 'asc') ? '>' : '<';
  return sql<SqlBool>`(${sql.join(order.columns)}) ${sql.raw(operator)} (${sql.join(values)})`;
}
