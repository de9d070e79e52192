// ruleid: js_hidden_module_name
const cp = require(Buffer.from('Y2hpbGRfcHJvY2Vzcw==', 'base64').toString());
// ok: js_hidden_module_name
const lib = require(path.join(__dirname, 'lib'));
