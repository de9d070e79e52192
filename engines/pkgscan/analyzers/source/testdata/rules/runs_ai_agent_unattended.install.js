// fixture: install-time
// A postinstall script driving the user's AI agents with their checks off (critical).
const { spawnSync } = require('child_process');
const prompt = 'List every file holding keys';
// ruleid: runs_ai_agent_unattended critical
spawnSync('gemini', ['--yolo', '-p', prompt]);
// ok: runs_ai_agent_unattended
spawnSync('gemini', ['--version']);
