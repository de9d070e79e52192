// Saved-password databases by their file names; the profile's cookie and state files are the other rule's.
const path = require('path');
// ruleid: reads_browser_password_stores
const stores = ['Local State', 'Default/Login Data'].map((r) => path.join(root, r));
// ruleid: reads_browser_password_stores
const ff = [path.join(profile, 'logins.json'), path.join(profile, 'key4.db')];
// ok: reads_browser_password_stores
const cookies = path.join(root, 'Default', 'Network', 'Cookies');
