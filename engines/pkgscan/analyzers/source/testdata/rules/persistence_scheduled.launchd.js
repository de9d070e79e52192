// launchd: the agents folder given as path parts, and the agent loaded.
const path = require('path');
const os = require('os');
// ruleid: persistence_scheduled
const dir = path.join(os.homedir(), 'Library', 'LaunchAgents');
// ruleid: persistence_scheduled
execFile('launchctl', ['load', '-w', plistPath], () => {});
// ok: persistence_scheduled
const prefs = path.join(os.homedir(), 'Library', 'Preferences');
