// A live-reload helper adds its script in development and leaves the policy alone.
const snippet = '<script src="//localhost:35729/livereload.js"></script>';
module.exports = () => (req, res, next) => {
  const write = res.write;
  // ok: strips_csp_and_injects
  res.write = (chunk) => write.call(res, String(chunk).replace('</body>', snippet + '</body>'));
  next();
};
