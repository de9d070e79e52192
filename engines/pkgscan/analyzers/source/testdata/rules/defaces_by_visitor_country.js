const ZONES = ['Europe/Moscow', 'Europe/Minsk'];
const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (ZONES.includes(tz)) {
  // ruleid: defaces_by_visitor_country
  document.body.innerHTML = '<h1>NO WAR</h1>';
}
