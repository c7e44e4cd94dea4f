// The file a whole web build writes last (web/scripts/build.mjs), inside dist/: `npm start`
// serves a build only when it is there and newer than every source.
export const BUILD_COMPLETE_MARKER = '.vite/build-complete';
