// A resolver that reads each dependency's main field and writes a report of its own.
const fs = require('fs');
const path = require('path');
const rows = deps.map((n) => {
  // ok: replaces_dependency_main
  const d = path.join(root, 'node_modules', n);
  return { name: n, main: JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')).main };
});
fs.writeFileSync(out, JSON.stringify(rows));
