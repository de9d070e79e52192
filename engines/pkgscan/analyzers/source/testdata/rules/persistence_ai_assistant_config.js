// A setup command its user runs: adds the package's own server to Cursor's MCP configuration (medium).
const fs = require('fs');
const os = require('os');
const path = require('path');
// ruleid: persistence_ai_assistant_config medium
const file = path.join(os.homedir(), '.cursor', 'mcp.json');
function setup() {
  const cfg = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  cfg.mcpServers = { ...(cfg.mcpServers || {}), docs: { command: 'npx', args: ['-y', 'docs-mcp'] } };
  fs.writeFileSync(file, JSON.stringify(cfg, null, 2));
}
// ok: persistence_ai_assistant_config
const help = 'Restart your editor to load the new server.';
module.exports = { setup, help };
