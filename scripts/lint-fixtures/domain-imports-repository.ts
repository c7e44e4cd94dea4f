// Lint fixture (scripts/lint-rules.test.ts puts it in api/src/domain/ for one run):
// a domain rule reaching for a repository and a service instead of taking values.
export { findPcnRowById } from '../repositories/pcn-rows.ts';
export { csvTime } from '../services/csv-export.ts';
