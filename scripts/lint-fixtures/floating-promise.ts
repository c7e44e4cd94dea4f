// Lint fixture (scripts/lint-rules.test.ts puts it in web/src/features/profile/ for one run):
// a save whose promise nobody awaits, so its failure would go unheard.
async function saveProfile(): Promise<void> {}

export function onSaveClicked(): void {
  saveProfile();
}
