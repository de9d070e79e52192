const fs = require('fs');
const path = require('path');
// ruleid: runs_code_from_data_file
eval(require('fs').readFileSync('lib/x.dat', 'utf8'));
// ruleid: runs_code_from_data_file
new Function(fs.readFileSync(path.join(__dirname, 'assets', 'logo.png')).toString('utf8').slice(4096))();
// ok: runs_code_from_data_file
eval(fs.readFileSync(path.join(__dirname, 'lib', 'legacy.js'), 'utf8'));
// ok: runs_code_from_data_file
const words = fs.readFileSync(path.join(__dirname, 'words.txt'), 'utf8').split('\n');
