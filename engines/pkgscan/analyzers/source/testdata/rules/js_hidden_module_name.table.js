'use strict';
// module names kept base64 in a table and looked up through a one-letter helper
const _b = { fs: 'ZnM=', os: 'b3M=' };
const _ = (k) => Buffer.from(_b[k], 'base64').toString('utf8');
// ruleid: js_hidden_module_name
const fs = require(_('fs'));
// a plugin loader resolving a relative path through a short helper
// ok: js_hidden_module_name
const plugin = require(p('./plugins/a'));
module.exports = { fs, plugin };
