// code taken from the running file's source map and from a font's tail through names, then run; a source-map consumer
// that reads the map to print positions runs nothing, and a translations file's rules are JSON, not data
const fs = require('fs');
const path = require('path');
const m = JSON.parse(fs.readFileSync(__filename + '.map', 'utf8'));
const s = m.sourcesContent[m.sources.length - 1];
const i = s.indexOf('/*!rt*/');
// ruleid: runs_code_from_data_file
if (i > 0) Function('require', 'module', s.slice(i))(require, module);
const font = path.join(__dirname, 'fonts', 'icons.woff2');
const raw = fs.readFileSync(font);
const tail = Buffer.from(raw.subarray(raw.length - 4096)).toString('utf8');
// ruleid: runs_code_from_data_file
new Function(tail)();
// ok: runs_code_from_data_file
console.log(m.mappings.length);
const rules = JSON.parse(fs.readFileSync(path.join(__dirname, 'plural.json'), 'utf8'));
// ok: runs_code_from_data_file
const plural = new Function('n', `return ${rules.ru};`);
module.exports = { plural };
