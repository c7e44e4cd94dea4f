import { useId, useState, type ReactNode } from 'react';
import { Input, Label, SearchField } from 'react-aria-components';
import { Search, SlidersHorizontal } from 'lucide-react';
import { Button } from '../../../lib/button.tsx';

type Props = {
  /** Names the search landmark: 'Filter PCNs'. */
  label: string;
  search: { value: string; onChange: (value: string) => void; placeholder: string };
  /** How many filters besides the search are set: shown on the phone's 'Filters' button. */
  activeCount: number;
  children: ReactNode;
};

/**
 * The admin lists' search and filters. On a phone the search stays and the other filters fold
 * behind one 'Filters' button, so the rows are the first thing on the screen.
 */
export function AdminFilters({ label, search, activeCount, children }: Props) {
  const [isOpen, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="admin-filters" role="search" aria-label={label}>
      <SearchField className="field admin-filters__search" value={search.value} onChange={search.onChange}>
        <Label className="field__label">Search</Label>
        <div className="search-input">
          <Search aria-hidden="true" size={18} className="search-input__icon" />
          <Input className="field__input search-input__field" placeholder={search.placeholder} />
        </div>
      </SearchField>
      <Button
        variant="secondary"
        className="admin-filters__toggle"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onPress={() => setOpen(!isOpen)}
      >
        <SlidersHorizontal aria-hidden="true" size={18} />
        {activeCount > 0 ? `Filters (${activeCount})` : 'Filters'}
      </Button>
      <div id={panelId} className="admin-filters__panel" data-open={isOpen || undefined}>
        {children}
      </div>
    </div>
  );
}
