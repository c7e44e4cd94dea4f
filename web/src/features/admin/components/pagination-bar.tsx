import { ChevronLeft, ChevronRight } from 'lucide-react';
import { formatListTotal, SCREEN_TEXTS, type Pagination } from '@parkpatrol/shared';
import { Button } from '../../../lib/button.tsx';

/** Previous / next with the position in words, for any paginated admin list. */
export function PaginationBar({
  pagination,
  onPageChange,
  label,
}: {
  pagination: Pagination;
  onPageChange: (page: number) => void;
  label: string;
}) {
  const { page, pages, total, limit } = pagination;
  if (total === 0) return null;
  const first = (page - 1) * limit + 1;
  const last = Math.min(total, page * limit);
  return (
    <nav className="pagination" aria-label={`${label} pages`}>
      <p aria-live="polite">
        {first}–{last} of {formatListTotal(pagination)}
      </p>
      <div className="button-row">
        <Button variant="secondary" onPress={() => onPageChange(page - 1)} isDisabled={page <= 1}>
          <ChevronLeft aria-hidden="true" size={18} />
          Previous
        </Button>
        <Button variant="secondary" onPress={() => onPageChange(page + 1)} isDisabled={page >= Math.max(1, pages)}>
          {SCREEN_TEXTS.next}
          <ChevronRight aria-hidden="true" size={18} />
        </Button>
      </div>
    </nav>
  );
}
