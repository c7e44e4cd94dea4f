// Lint fixture (scripts/lint-rules.test.ts puts it in web/src/features/profile/ for one run):
// one feature reaching into another's insides, and the web app into the API's code.
export { createEmptyDraft } from '../pcns/pcn-draft.ts';
export { loadConfig } from '../../../../api/src/config.ts';
