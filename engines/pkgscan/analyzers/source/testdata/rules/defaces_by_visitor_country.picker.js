// A date picker formats for the visitor's zone and resets its own storage on request.
const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
const fmt = new Intl.DateTimeFormat(navigator.language, { timeZone: tz });
function reset() {
  // ok: defaces_by_visitor_country
  sessionStorage.clear();
}
