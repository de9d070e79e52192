const path = require('path');
function gather(dir) {
  // ruleid: reads_browser_or_app_secrets
  const db = path.join(dir, 'globalStorage', 'state.vscdb');
  // ok: reads_browser_or_app_secrets
  const settings = path.join(dir, 'settings.json');
  return [db, settings];
}
