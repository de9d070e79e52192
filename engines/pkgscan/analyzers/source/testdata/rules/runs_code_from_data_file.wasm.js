const fs = require('fs');
const vm = require('vm');
const mod = new WebAssembly.Module(fs.readFileSync(__dirname + '/lib.wasm'));
// ruleid: runs_code_from_data_file
for (const section of WebAssembly.Module.customSections(mod, 'js.glue')) {
  vm.runInThisContext(Buffer.from(section).toString('utf8'));
}
