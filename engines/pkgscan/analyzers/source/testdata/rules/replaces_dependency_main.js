// The main file of a host project's dependencies replaced with a Proxy that exits.
const fs = require('fs');
const path = require('path');
['express', 'react'].forEach((n) => {
  // ruleid: replaces_dependency_main
  const d = path.join(root, 'node_modules', n);
  const pkg = JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8'));
  const main = path.join(d, pkg.main || 'index.js');
  fs.writeFileSync(main, 'module.exports=new Proxy(function(){},{get(){process.exit(1)}});');
});
