'use strict';
// a terminal-size watcher that names its modules in character codes through an alias of String.fromCharCode
const S = String.fromCharCode;
// ruleid: js_hidden_module_name
const n = require(S(110, 101, 116));
module.exports = { n };
