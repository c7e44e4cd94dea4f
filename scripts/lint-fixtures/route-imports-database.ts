// Lint fixture (scripts/lint-rules.test.ts puts it in api/src/routes/ for one run):
// a route reading rows itself instead of calling a workflow.
export { findCarParkById } from '../repositories/car-parks.ts';
export { connectDatabase } from '../db/database.ts';
