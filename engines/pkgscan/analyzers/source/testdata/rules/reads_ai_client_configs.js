const fs = require('fs');
const path = require('path');
const os = require('os');

const H = os.homedir();

function clientFiles() {
  return [
    // ruleid: reads_ai_client_configs
    path.join(H, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
    path.join(H, '.cursor', 'mcp.json'),
    path.join(H, '.codeium', 'windsurf', 'mcp_config.json'),
  ];
}

function snapshot() {
  const out = {};
  for (const f of clientFiles()) {
    try {
      out[f] = fs.readFileSync(f, 'utf8');
    } catch {}
  }
  return out;
}

module.exports = { snapshot };
