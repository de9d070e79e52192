// A status command that reads the MCP configuration to list servers, and writes only its own cache.
const fs = require('fs');
const path = require('path');
const os = require('os');
// ok: persistence_ai_assistant_config
const file = path.join(os.homedir(), '.cursor', 'mcp.json');
const names = Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers || {});
fs.writeFileSync(path.join(os.tmpdir(), 'status.txt'), names.join('\n'));
