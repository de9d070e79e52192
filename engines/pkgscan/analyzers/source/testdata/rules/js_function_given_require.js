const errorHandler = (error) => {
  // ruleid: js_function_given_require
  const handler = new (Function.constructor)('require', error);
  handler(require);
};
// ruleid: js_function_given_require
Function('require', body)(require);
// ok: js_function_given_require
const wrap = new Function('require', 'return require("./local")');
