'use strict';
// an alias of String.fromCharCode used to draw box characters; the modules are named plainly or by a path helper
const S = String.fromCharCode;
const path = require('path');
const corner = S(0x250c);
// ok: js_hidden_module_name
const plugin = require(join(__dirname, 'plugins', name));
// ok: js_hidden_module_name
const fs = require('fs');
const draw = (w) => corner + S(0x2500).repeat(w);
module.exports = { draw, fs, plugin, path };
