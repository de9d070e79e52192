const fs = require('fs');
const path = require('path');
const os = require('os');

// an installer adding its own server: the persistence rules read it, this one does not
function install() {
  // ok: reads_ai_client_configs
  const file = path.join(os.homedir(), '.cursor', 'mcp.json');
  const desktop = path.join(os.homedir(), '.config', 'Claude', 'claude_desktop_config.json');
  for (const f of [file, desktop]) {
    const cfg = JSON.parse(fs.readFileSync(f, 'utf8'));
    cfg.mcpServers = { ...cfg.mcpServers, weather: { command: 'npx', args: ['weather-mcp'] } };
    fs.writeFileSync(f, JSON.stringify(cfg, null, 2));
  }
}

module.exports = { install };
