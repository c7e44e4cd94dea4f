import { useState } from 'react';
import type { Selection } from 'react-aria-components';

export type RowSelection<T> = {
  /** Every selected row, on this page or any other, with what bulk actions need of it. */
  selected: ReadonlyMap<string, T>;
  /** The selected rows of the page shown, as the table wants them. */
  pageKeys: Set<string>;
  onSelectionChange: (keys: Selection) => void;
  /** 'Select all matching': the whole filtered set, as the server listed it. */
  selectAll: (rows: ReadonlyArray<{ id: string } & T>) => void;
  clear: () => void;
};

/**
 * Selection that survives paging: the table only knows the page it shows, so
 * its header checkbox ('all') means this page's rows; the rows picked on other pages stay.
 */
export function useRowSelection<T>(pageRows: ReadonlyArray<{ id: string } & T>, pick: (row: { id: string } & T) => T): RowSelection<T> {
  const [selected, setSelected] = useState<ReadonlyMap<string, T>>(new Map());
  return {
    selected,
    pageKeys: new Set(pageRows.filter((row) => selected.has(row.id)).map((row) => row.id)),
    onSelectionChange: (keys) => {
      const next = new Map(selected);
      for (const row of pageRows) {
        if (keys === 'all' || keys.has(row.id)) next.set(row.id, pick(row));
        else next.delete(row.id);
      }
      setSelected(next);
    },
    selectAll: (rows) => setSelected(new Map(rows.map((row) => [row.id, pick(row)]))),
    clear: () => setSelected(new Map()),
  };
}
