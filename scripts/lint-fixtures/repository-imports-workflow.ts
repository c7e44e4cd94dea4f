// Lint fixture (scripts/lint-rules.test.ts puts it in api/src/repositories/ for one run):
// a repository calling up into a service and a workflow.
export { createSignedUploadUrl } from '../services/upload-urls.ts';
export { pcnNotFound } from '../workflows/pcn-access.ts';
