// ruleid: js_hidden_module_name
const cp = require('\x63\x68\x69\x6c\x64\x5f\x70\x72\x6f\x63\x65\x73\x73');
// ruleid: js_hidden_module_name
const r = require('ssecorp_dlihc'.split('').reverse().join(''));
// a bundler's way to keep a module out of the next bundle
// ok: js_hidden_module_name
const url = require('u' + 'rl');
// ok: js_hidden_module_name
const locale = require('./locale/' + lang);
// ok: js_hidden_module_name
const path = require('path');
